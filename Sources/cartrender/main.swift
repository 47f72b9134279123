import CartRender
import CartRenderRaster
import Foundation

MemoryTuning.keepLargeBuffersMapped()
setvbuf(stdout, nil, _IOFBF, 1 << 16)
// Over a file size limit (`ulimit -f`), writes fail with EFBIG and are reported (exit 73)
// instead of the process being killed with half its output in place.
signal(SIGXFSZ, SIG_IGN)
let code = CLI.run(Array(CommandLine.arguments.dropFirst()))
fflush(stdout)
exit(code.rawValue)
