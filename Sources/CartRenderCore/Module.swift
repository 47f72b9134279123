public enum CartRenderCore {}
