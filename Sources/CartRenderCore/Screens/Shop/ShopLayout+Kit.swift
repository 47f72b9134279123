import Foundation

extension ShopLayout {
    /// What every region of the screen lays out with: the device, the layout direction, the
    /// shop's font at the scene's Dynamic Type size, and the text measurer.
    struct Kit {
        let device: Device
        let direction: LayoutDirection
        let typeSize: DynamicTypeSize
        let family: FontFamily
        let measurer: any TextMeasuring
        /// The width (pt) inside the 24 pt horizontal padding.
        var contentWidth: Double { device.width - 2 * ShopLook.padding }

        init(scene: Scene, shop: ShopContent, measurer: any TextMeasuring) {
            device = scene.device
            direction = scene.layoutDirection
            typeSize = scene.dynamicTypeSize
            family = shop.font
            self.measurer = measurer
        }

        /// Every frame on the pixel grid of the scene's scale: SwiftUI rounds laid-out frames to
        /// device pixels (what follows a frame starts from its rounded edge).
        func px(_ r: Rect) -> Rect { r.roundedToPixels(scale: device.scale) }
        /// A left-to-right frame (pt) mirrored for the scene's direction, on the pixel grid.
        func place(_ r: Rect) -> Rect { px(direction.mirrored(r, in: device.width)) }
        /// The shop's font for a text style of the screen.
        func font(_ f: ScalableFont) -> FontSpec { f.resolved(typeSize).family(family) }
    }
}
