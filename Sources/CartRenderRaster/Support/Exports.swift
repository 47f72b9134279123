// The file layer (CartRenderFiles: the one file reader, directory handles, AssetFolder) comes
// with the raster layer that reads image and font files through it, so its users and the layers
// above reach both with one import.
@_exported import CartRenderFiles
