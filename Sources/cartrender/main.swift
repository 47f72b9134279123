import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation

MemoryTuning.configureAllocator()
// Out of memory in a library, or a crash: one sentence, the unfinished files removed, exit 70.
FatalSignals.install()
// A closed stdin, stdout or stderr (`2>&-`) would be reused by the next file opened, and
// messages would land in it: give them /dev/null instead.
for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 { _ = open("/dev/null", O_RDWR) }
setvbuf(stdout, nil, _IOFBF, 1 << 16)
// Over a file size limit (`ulimit -f`), writes fail with EFBIG and are reported (exit 73)
// instead of the process being killed with half its output in place.
signal(SIGXFSZ, SIG_IGN)
// A reader that stops reading (`cartrender audit --json | head -c 10`) closes the pipe: writes to
// it then fail with EPIPE instead of killing the process, and the run ends with its own status
// and no message, as the reader chose to stop.
signal(SIGPIPE, SIG_IGN)
// Arguments as paths that keep their bytes (`CommandLine.arguments` would replace bytes that are
// not UTF-8): any name the file system accepts works as a scene, --out, --baseline….
let code = CLI.run(FileSystemPath.commandLineArguments())
// Help or the schema written to a full disk must not look like success; a reader that went away
// is not a failure to write.
if fflush(stdout) != 0 || ferror(stdout) != 0 {
    var out = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
    if poll(&out, 1, 0) == 1 && out.revents & Int16(POLLERR | POLLHUP) != 0 { exit(code.rawValue) }
    fputs("cartrender: standard output cannot be written (\(String(cString: strerror(errno))))\n", stderr)
    exit(ExitCode.cannotCreate.rawValue)
}
exit(code.rawValue)
