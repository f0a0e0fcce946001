"""The files commands read and write: .npy inputs and .npz outputs, files
written whole (each, or a set together), and folders made only at the end
of a run.
"""
from __future__ import annotations

import contextlib
from pathlib import Path

from ..errors import PlainError


def _load_npy(path: str):
    """The array, read through a memory map first: a header that claims more
    elements than the file holds is refused, not allocated; so is one whose
    elements hold no bytes (`|V0`: any count of them fits in no data)."""
    import numpy as np  # (here, not above: numpy's import is a tenth of a compile command's start)

    _npy_header(path)
    try:
        mapped = np.load(path, mmap_mode="r", allow_pickle=False)
        return np.array(mapped) if isinstance(mapped, np.memmap) else mapped
    except (FileNotFoundError, PermissionError, IsADirectoryError) as exc:
        raise PlainError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (OSError, ValueError, EOFError):  # an empty file, a cut one, a header past the data, not .npy at all
        raise PlainError(f"{path} is not a .npy array file, or not a whole one", "write one with numpy.save(path, array)") from None
    except MemoryError:
        raise PlainError(f"{path}: the array does not fit in memory") from None


def _npy_header(path: str) -> None:
    """Refuse a .npy whose header describes no array tiler could read: an
    element type of no bytes, or one that is not a number (an .npz renamed,
    text), before NumPy reads it."""
    import numpy as np

    try:
        with open(path, "rb") as f:
            if f.read(4) == b"PK\x03\x04":
                raise PlainError(f"{path} is a zip archive (an .npz of several arrays?), not one .npy array",
                                 "save the array alone: numpy.save(path, array)")
            f.seek(0)
            version = np.lib.format.read_magic(f)
            read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            shape, _, dtype = read(f)  # (the header alone)
    except FileNotFoundError:
        raise PlainError(f"cannot read {path}: No such file or directory") from None
    except (OSError, ValueError, EOFError, SyntaxError, TypeError):
        return  # (not a .npy file, or a damaged one: np.load says so)
    if dtype.itemsize == 0 or dtype.kind not in "biuf":
        raise PlainError(f"{path} holds elements of type {dtype} (shape {shape}), not numbers",
                         "write one with numpy.save(path, array) of ints, floats or bools")


def _save(path: str, outs) -> None:
    """The outputs as one .npz archive (out0, out1, ...), written whole like
    every file tiler writes (a failure leaves an earlier file as it was);
    `-`: to standard output, unless that is a terminal."""
    import io
    import sys

    import numpy as np

    buffer = io.BytesIO()
    np.savez(buffer, **{f"out{i}": o for i, o in enumerate(outs)})
    if path == "-":
        if sys.stdout.isatty():
            raise PlainError("-o -: the .npz archive is binary, and standard output is a terminal",
                             "name a file (-o out.npz), or send it on: -o - > out.npz")
        sys.stdout.flush()
        sys.stdout.buffer.write(buffer.getvalue())
        return
    _write_together({path: buffer.getvalue()})


def refuse_overwriting(outputs, reads: dict) -> None:
    """Refuse, before anything is computed or written, an output that is a
    file the command reads (`outputs`: paths -o names, or a dict of each
    path to what names it, "--json"; `reads`: a path read -> what it is,
    "the program"): writing it would destroy that file."""
    named = outputs if isinstance(outputs, dict) else {out: "-o" for out in outputs}
    for out, flag in named.items():
        if out is None or str(out) == "-":
            continue
        for path, what in reads.items():
            if path is None or str(path) == "-":
                continue
            if _same_file(str(out), str(path)):
                raise PlainError(f"{flag} {out} would write over {what} ({path})",
                                 "name the output otherwise: nothing was written")


def _same_file(a: str, b: str) -> bool:
    import os

    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


def _write(path: str, text: str) -> None:
    _write_together({path: text})


def _write_together(files: dict[str, str | bytes]) -> None:
    """Every file written whole, as one set: each goes to a temporary file
    beside it first (so a failure leaves nothing behind, and a reader never
    sees half a file), then all are renamed into place while holding a lock
    on their folder, so two runs writing the same names at once leave one
    run's set, not a mix of both."""
    import errno
    import os
    import tempfile

    done: dict[str, str] = {}
    path = next(iter(files))
    umask = os.umask(0)
    os.umask(umask)
    try:
        for path in files:  # a folder in a file's place would stop the renames halfway
            if os.path.isdir(path):
                raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
        for path, text in files.items():
            mode = "wb" if isinstance(text, bytes) else "w"
            if os.path.exists(path) and not os.path.isfile(path):
                with open(path, mode) as f:  # a device or a pipe (/dev/stdout): written in place, never replaced
                    f.write(text)
                continue
            folder = os.path.dirname(os.path.abspath(path))
            fd, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", dir=folder)
            done[path] = temporary
            os.chmod(temporary, 0o666 & ~umask)  # the mode a plain write would give (mkstemp's is 0600)
            with os.fdopen(fd, mode) as f:
                f.write(text)
        with _folder_lock(os.path.dirname(os.path.abspath(next(iter(files))))):
            for path, temporary in done.items():
                os.replace(temporary, path)
    except OSError as exc:
        for temporary in done.values():
            if os.path.exists(temporary):
                os.remove(temporary)
        raise PlainError(f"cannot write {path}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def _folder_lock(folder: str):
    """An exclusive lock on a folder (flock, where the system has it; without
    one, each file is still replaced whole)."""
    import os
    try:
        import fcntl
        fd = os.open(folder, os.O_RDONLY)
    except (ImportError, OSError):
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass  # a folder that takes no lock: each file is still replaced whole
        yield
    finally:
        os.close(fd)  # (closing releases the lock)


def _check_folder(path: str, flag: str) -> None:
    """A folder written only at the end (and only if there is something to
    write) can be made there: found out now, not after the run."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise PlainError(f"{flag} {path} is a file, not a folder")
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PlainError(f"{flag} {path}: cannot make a folder there: {exc.strerror or exc}") from None
    if made:  # (a parent it made stays: empty, harmless)
        with contextlib.suppress(OSError):  # runs side by side: another may have removed it, or written in it
            folder.rmdir()
