/// The fixed texts of the cart page, "Total" and "Check out". Seed 003 writes them as
/// `Text("Total")` and `Text("Check out")`: what they show in another language is whatever the
/// app's `Localizable.strings` says, which only the scene knows. A scene's `cart.totalLabel` and
/// `cart.checkoutTitle` give those words (`CartContent`); without them the page shows the
/// seed's English, as an app without translations does.
public struct CartLabels: Equatable, Sendable {
    /// The label beside the total ("Total").
    public var total: String
    /// The title of the checkout button ("Check out").
    public var checkout: String
    /// The two texts, as shown.
    public init(total: String, checkout: String) { self.total = total; self.checkout = checkout }

    /// The seed's English texts.
    public static let english = CartLabels(total: "Total", checkout: "Check out")
}
