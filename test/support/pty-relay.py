"""Runs a command on a real pseudo-terminal of a given size, for tests: what this process reads on
stdin is typed into the terminal, and what the terminal shows is written to stdout. With
--stderr-apart, the command's stderr is not the terminal but this process's own stderr, so a test can
tell the two apart. A SIGTERM sent here goes to the command. Exits with the command's status
(128 + N when a signal N ended it)."""
import fcntl, os, pty, select, signal, struct, sys, termios

args = sys.argv[1:]
apart = args[0] == '--stderr-apart'
if apart:
    args = args[1:]
cols, rows, argv = int(args[0]), int(args[1]), args[2:]
saved_err = os.dup(2)
os.set_inheritable(saved_err, True)

pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
    if apart:
        os.dup2(saved_err, 2)
    os.execvp(argv[0], argv)

signal.signal(signal.SIGTERM, lambda *_: os.kill(pid, signal.SIGTERM))
inputs = [fd, 0]
while True:
    try:
        ready, _, _ = select.select(inputs, [], [])
    except InterruptedError:
        continue
    if fd in ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b''
        if not data:
            break
        os.write(1, data)
    if 0 in ready:
        data = os.read(0, 65536)
        if data:
            os.write(fd, data)
        else:
            inputs = [fd]

_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) if os.waitstatus_to_exitcode(status) >= 0 else 128 - os.waitstatus_to_exitcode(status))
