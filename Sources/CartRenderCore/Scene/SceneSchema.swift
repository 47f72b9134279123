public enum SceneSchema { public static var json: JSONValue { .object([]) } }
