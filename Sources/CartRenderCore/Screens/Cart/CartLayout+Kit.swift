import Foundation

extension CartLayout {
    /// What every region of the page lays out with: the device, the layout direction, the
    /// cart's font at the scene's Dynamic Type size, and the text measurer.
    struct Kit {
        let device: Device
        let direction: LayoutDirection
        let typeSize: DynamicTypeSize
        let family: FontFamily
        let locale: String
        let measurer: any TextMeasuring

        init(scene: Scene, cart: CartContent, measurer: any TextMeasuring) {
            device = scene.device
            direction = scene.layoutDirection
            typeSize = scene.dynamicTypeSize
            family = cart.font
            locale = scene.locale
            self.measurer = measurer
        }

        /// A left-to-right frame (pt) mirrored for the scene's direction and rounded to its pixel grid.
        func place(_ r: Rect) -> Rect { direction.mirrored(r, in: device.width).roundedToPixels(scale: device.scale) }
        /// The cart's font for a text style of the page (`CartLook.font(_:at:cart:)`).
        func font(_ f: ScalableFont) -> FontSpec { CartLook.font(f, at: typeSize, cart: family) }
        /// A text's size with its height rounded up to whole points.
        func up(_ s: Size) -> Size { Size(width: s.width, height: s.height.rounded(.up)) }
        /// Half of `v` (pt), rounded down: how SwiftUI centers on whole points.
        func half(_ v: Double) -> Double { (v / 2).rounded(.down) }
        /// The height (pt) of one line of `f`.
        func line(_ f: FontSpec) -> Double { measurer.measure("0", font: f, maxWidth: nil).height }
        /// The height (pt, rounded up) of one line of `f`.
        func lineHeight(_ f: ScalableFont) -> Double { line(font(f)).rounded(.up) }
        /// Left edge (pt, left to right) of the header's title: after the padding, the chevron
        /// and the header's spacing.
        var titleX: Double { CartLook.padding + CartLook.chevronSize.width + CartLook.headerSpacing }
        /// Width (pt) of the header's title: from `titleX` to the padding at the right edge, at
        /// least 1.
        var titleWidth: Double { max(1, device.width - CartLook.padding - titleX) }
        /// The size (pt) of `text` wrapped at `width`; none when not even its widest character fits
        /// that width (`TextRun.wrapped` does not draw it then).
        func wrapped(_ text: String, _ f: FontSpec, width: Double, maxLines: Int?) -> Size {
            width >= measurer.minimumWidth(text, font: f) - 1e-9
                ? up(measurer.measure(text, font: f, maxWidth: width, maxLines: maxLines)) : Size(width: 0, height: 0)
        }
    }
}
