import CartRender
import CartRenderRaster
import Foundation

MemoryTuning.keepLargeBuffersMapped()
setvbuf(stdout, nil, _IOFBF, 1 << 16)
let code = CLI.run(Array(CommandLine.arguments.dropFirst()))
fflush(stdout)
exit(code.rawValue)
