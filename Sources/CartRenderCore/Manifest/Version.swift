// Written by `make version` from the file VERSION at the top of the checkout: edit VERSION, not
// this file (VersionTests fails while the two differ).
extension Manifest {
    /// cartrender's version, as in the file VERSION.
    public static let version = "0.1.0"
}
