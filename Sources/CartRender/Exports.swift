// The file layer (CartRenderFiles: the one file reader, directory handles, scene files,
// AssetFolder) comes with the library that writes the outputs through it, so the command line
// and Swift users reach it with `import CartRender`.
@_exported import CartRenderFiles
