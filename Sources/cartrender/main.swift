import CartRender
import CartRenderCLI
import CartRenderCore
import CartRenderRaster
import Foundation

MemoryTuning.configureAllocator()
// Out of memory in a library, or a crash: one sentence, the unfinished files removed, exit 70.
FatalSignals.install()
// A closed stdin, stdout or stderr (`2>&-`) would be reused by the next file opened, and
// messages would land in it: give them /dev/null instead. Standard output gets it read-only, so
// that printing to a closed one still fails (EBADF) and is reported (`StandardOutput`).
for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 { _ = open("/dev/null", fd == STDOUT_FILENO ? O_RDONLY : O_RDWR) }
setvbuf(stdout, nil, _IOFBF, 1 << 16)
// Over a file size limit (`ulimit -f`), writes fail with EFBIG and are reported (exit 73)
// instead of the process being killed with half its output in place.
signal(SIGXFSZ, SIG_IGN)
// A reader that stops reading (`cartrender audit --json | head -c 10`) closes the pipe: writes to
// it then fail with EPIPE instead of killing the process, and the run ends with its own status
// and no message, as the reader chose to stop (`StandardOutput.finish`).
signal(SIGPIPE, SIG_IGN)
// Swift reads a program's arguments from /proc/self/cmdline: where /proc is not mounted (a bare
// chroot) it sees none, not even the program's name, and cartrender cannot know what was asked.
guard CommandLine.argc > 0 else {
    Stderr.line("cannot read its command line: /proc is not mounted (in a chroot: mount -t proc proc /proc)")
    exit(ExitCode.unavailable.rawValue)
}
// Arguments as paths that keep their bytes (`CommandLine.arguments` would replace bytes that are
// not UTF-8): any name the file system accepts works as a scene, --out, --baseline….
let code = CLI.run(FileSystemPath.commandLineArguments())
CLI.waitWhileEndingOnASignal()
// Help or the schema written to a closed standard output or a full disk must not look like success.
exit(StandardOutput.finish(code).rawValue)
