import Foundation

extension SceneDecoder {
    /// Without a `duration`, a render runs to at least 0.5 s after its last event
    /// (`Renderer.tail`): refuse, at that event's `at`, a last event so late that the render
    /// would have more than `maxFrames` frames at the scene's fps. (The renderer checks the
    /// exact count again once the animations are simulated.)
    func checkOpenEndedLength(_ s: Scene, events eventsNode: JSONNode?) throws {
        guard s.duration == nil, let last = s.events.max(by: { $0.at < $1.at }) else { return }
        let end = last.at + 0.5
        let frames = Int((end * Double(s.fps)).rounded()) + 1
        guard frames > Self.maxFrames else { return }
        throw error(eventMember(eventsNode, last.index, "at"), "events[\(last.index)].at",
                    "without a \"duration\" the render runs to at least \(JSONValue.format(end, decimals: 6)) s, which at \(s.fps) fps is \(frames) frames; at most \(Self.maxFrames)")
    }

    /// The value of `key` in event `index` of the `events` array, or the closest enclosing node
    /// there is (for error positions).
    func eventMember(_ eventsNode: JSONNode?, _ index: Int, _ key: String) -> JSONNode? {
        guard case .array(let list)? = eventsNode?.value, index < list.count else { return eventsNode }
        guard case .object(let members) = list[index].value, let m = members.first(where: { $0.key == key }) else { return list[index] }
        return m.value
    }
}
