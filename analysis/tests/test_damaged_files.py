"""Damaged files: quicklook, report and compare refuse them with one line and exit 2, never a
traceback. Each case starts from a valid synthetic run (synthetic.write_run) and damages it
the way a crash, a full disk, a bad disk block or a hand edit would."""

from __future__ import annotations

import os
import random
import shutil
import signal
import struct
import time

import h5py
import numpy as np
import pytest

from rubble_analysis import RunFormatError, open_run
from rubble_analysis import __main__ as cli
from rubble_analysis import reader
from synthetic import write_run

ALL = ("quicklook", "report", "compare")
LAST = "snapshots/000002"  # the last snapshot: every command reads it


@pytest.fixture(scope="module")
def valid(tmp_path_factory):
    path = tmp_path_factory.mktemp("valid") / "valid.h5"
    write_run(path)
    return path


def layout(path) -> dict:
    """The attribute names of every group, and the shape after the first axis, type and
    extendibility of every dataset; of the snapshots, the first only."""
    entries = {}

    def visit(name, obj):
        if name.startswith("snapshots/") and not name.startswith("snapshots/000000"):
            return
        if isinstance(obj, h5py.Group):
            entries[name] = set(obj.attrs)
        else:
            entries[name] = (obj.shape[1:], obj.dtype.str, obj.maxshape[0] is None)

    with h5py.File(path, "r") as f:
        entries["/"] = set(f.attrs)
        f.visititems(visit)
    return entries


def test_the_synthetic_run_is_laid_out_as_a_real_one(short_run, valid):
    """What the synthetic run holds, a real one holds in the same form (a newer writer may add
    attributes or datasets)."""
    synthetic, real = layout(valid), layout(short_run)
    for name, entry in synthetic.items():
        assert name in real
        assert entry <= real[name] if isinstance(entry, set) else entry == real[name], name


# Damage to the bytes of the file.

def cut_at(offset):
    """A file cut short, as by a full disk; a negative offset counts from the end."""
    def damage(path):
        data = path.read_bytes()
        path.write_bytes(data[:offset])
    return damage


def overwrite(offset, data):
    def damage(path):
        raw = bytearray(path.read_bytes())
        raw[offset:offset + len(data)] = data
        path.write_bytes(bytes(raw))
    return damage


def random_bytes(path):
    path.write_bytes(random.Random(1).randbytes(4096))


def directory(path):
    path.unlink()
    path.mkdir()


def heap_string_length(length):
    """A garbled length of the stored parameters in the global heap, where HDF5 keeps string
    attributes: libhdf5 1.10 copies that many bytes, and corrupts memory, loops (slightly too
    long) or crashes (far too long)."""
    def damage(path):
        raw = bytearray(path.read_bytes())
        at = raw.index(b"[units]")  # the TOML text follows its 8-byte length
        raw[at - 8:at] = struct.pack("<Q", length)
        path.write_bytes(bytes(raw))
    return damage


# Damage through h5py: objects missing, replaced or rewritten.

def edit(change):
    def damage(path):
        with h5py.File(path, "r+") as f:
            change(f)
    return damage


def set_attr(where, name, value):
    return edit(lambda f: f[where].attrs.__setitem__(name, value))


def del_attr(where, name):
    return edit(lambda f: f[where].attrs.__delitem__(name))


def delete(where):
    return edit(lambda f: f.__delitem__(where))


def replace(where, data, **options):
    def change(f):
        del f[where]
        f.create_dataset(where, data=data, **options)
    return edit(change)


def transform(where, function):
    """Rewrites a dataset as function(its data), keeping it extendible when it was."""
    def change(f):
        data, maxshape = function(f[where][()]), f[where].maxshape
        del f[where]
        if maxshape[0] is None:
            f.create_dataset(where, data=data, maxshape=(None, *data.shape[1:]))
        else:
            f[where] = data
    return edit(change)


def set_row(where, row, value):
    def function(data):
        data[row] = value
        return data
    return transform(where, function)


def in_turn(*damages):
    def damage(path):
        for each in damages:
            each(path)
    return damage


def set_toml(text):
    return set_attr("parameters", "toml", text)


def move(source, target):
    return edit(lambda f: f.move(source, target))


def clear_group(where):
    def change(f):
        for name in list(f[where]):
            del f[where][name]
    return edit(change)


def empty_diagnostics(f):
    for name in f["diagnostics"]:
        f["diagnostics"][name].resize(0, axis=0)


VALID_TOML = "[units]\nG = 6.6743e-11\n[ic.motion]\nv0 = 0.0\nw0 = 0.0\nomega = 1e-4\n"

# (name, damage, commands that must refuse the file; the others read none of the damage
# and must succeed).
CASES = [
    ("zero-length file", cut_at(0), ALL),
    ("cut inside the superblock", cut_at(40), ALL),
    ("cut after 2000 bytes", cut_at(2000), ALL),
    ("cut in the middle", cut_at(150_000), ALL),
    ("last byte missing", cut_at(-1), ALL),
    ("random bytes", random_bytes, ALL),
    ("HDF5 signature overwritten", overwrite(0, b"NOTHDF5!"), ALL),
    ("a directory", directory, ALL),
    ("no format attribute", del_attr("/", "format"), ALL),
    ("another format", set_attr("/", "format", "other"), ALL),
    ("format_version 99", set_attr("/", "format_version", 99), ALL),
    ("format_version a string", set_attr("/", "format_version", "2"), ALL),
    ("no format_version", del_attr("/", "format_version"), ALL),
    ("no complete attribute", del_attr("/", "complete"), ALL),
    ("complete = 7", set_attr("/", "complete", 7), ALL),
    ("stop_reason a number", set_attr("/", "stop_reason", 3), ALL),
    ("no code_version", del_attr("/", "code_version"), ALL),
    ("start_time NaN", set_attr("/", "start_time", np.nan), ALL),
    ("no /parameters", delete("parameters"), ALL),
    ("garbled parameters", set_toml("[units\nG = = 1\n"), ALL),
    ("parameters without units.G", set_toml(VALID_TOML.replace("G = 6.6743e-11", "")), ALL),
    ("parameter v0 a string", set_toml(VALID_TOML.replace("v0 = 0.0", 'v0 = "fast"')), ALL),
    ("parameters not a string", set_attr("parameters", "toml", 42), ALL),
    ("parameters' heap length slightly wrong", heap_string_length(1000), ALL),
    ("parameters' heap length far off", heap_string_length(2**32 - 1), ALL),
    ("no /snapshots", delete("snapshots"), ALL),
    ("empty /snapshots", clear_group("snapshots"), ALL),
    ("a stray member of /snapshots", edit(lambda f: f.create_group("snapshots/junk")), ALL),
    ("a snapshot that is a dataset", replace(LAST, np.zeros(3)), ALL),
    ("no snapshot step", del_attr(LAST, "step"), ALL),
    ("snapshot time a string", set_attr(LAST, "time", "late"), ALL),
    ("snapshots out of order", set_attr(LAST, "step", 0), ALL),
    ("no position", delete(f"{LAST}/position"), ALL),
    ("mass one body short", transform(f"{LAST}/mass", lambda m: m[:-1]), ALL),
    ("id one body long", transform(f"{LAST}/id", lambda i: np.append(i, 99)), ALL),
    ("position of shape (N, 2)", transform(f"{LAST}/position", lambda x: x[:, :2]), ALL),
    ("radius of strings", transform(f"{LAST}/radius", lambda r: r.astype("S8")), ALL),
    ("id of floats", transform(f"{LAST}/id", lambda i: i.astype(float)), ALL),
    ("NaN position", set_row(f"{LAST}/position", 3, np.nan), ALL),
    ("unfinished run with a NaN position",
     in_turn(set_attr("/", "complete", 0), set_row(f"{LAST}/position", 3, np.nan)), ALL),
    ("NaN velocity", set_row(f"{LAST}/velocity", 5, np.nan), ALL),
    ("infinite mass", set_row(f"{LAST}/mass", 0, np.inf), ALL),
    ("negative mass", set_row(f"{LAST}/mass", 1, -1.0), ALL),
    ("zero radius", set_row(f"{LAST}/radius", 2, 0.0), ALL),
    ("repeated id", set_row(f"{LAST}/id", 1, 0), ALL),
    ("orientation not a unit quaternion", set_row(f"{LAST}/orientation", 4, 0.0), ALL),
    # The spheres table: every command draws or measures the bodies through it.
    ("no sphere offsets", delete(f"{LAST}/spheres/offset"), ALL),
    ("sphere radii one short", transform(f"{LAST}/spheres/radius", lambda r: r[:-1]), ALL),
    ("sphere of a body row that does not exist", set_row(f"{LAST}/spheres/body", 7, 8), ALL),
    ("spheres not grouped by body", set_row(f"{LAST}/spheres/body", 0, 5), ALL),
    ("a body without a sphere", set_row(f"{LAST}/spheres/body", 7, 6), ALL),
    ("zero sphere radius", set_row(f"{LAST}/spheres/radius", 3, 0.0), ALL),
    ("NaN sphere offset", set_row(f"{LAST}/spheres/offset", 2, np.nan), ALL),
    ("no /diagnostics", delete("diagnostics"), ALL),
    ("short diagnostics column", transform("diagnostics/time", lambda t: t[:-1]), ALL),
    ("no total_energy series", delete("diagnostics/total_energy"), ALL),
    ("diagnostics step of floats", transform("diagnostics/step", lambda s: s * 1.0), ALL),
    ("no diagnostics rows", edit(empty_diagnostics), ALL),
    ("a billion diagnostics rows", replace("diagnostics/step", None, shape=(10**9,),
                                           dtype=np.int64, chunks=(1024,)), ALL),
    # compare does not read the diagnostics.
    ("NaN energy", set_row("diagnostics/total_energy", 1, np.nan), ("quicklook", "report")),
    ("negative collision count", set_row("diagnostics/collisions_total", 2, -3.0),
     ("quicklook", "report")),
    ("no /collisions", delete("collisions"), ALL),
    ("collision-log columns of different lengths",
     transform("collisions/time", lambda t: t[:-1]), ALL),
    ("collision ids of shape (n, 3)",
     transform("collisions/id", lambda i: np.hstack([i, i[:, :1]])), ALL),
    ("diagnostics renamed", move("diagnostics", "diagnostic"), ALL),
]


def run_cli(command, path, valid, out, capsys):
    """rubble_analysis COMMAND on path: (exit code, stderr lines)."""
    args = {"quicklook": ["quicklook", str(path), "--output", str(out / "look.png")],
            "report": ["report", str(path), "--output", str(out / "report")],
            "compare": ["compare", str(path), str(valid), "--output", str(out / "compare")]}
    code = cli.main(args[command])
    return code, capsys.readouterr().err.splitlines()


def assert_refused(code, err, path):
    assert code == 2
    assert len(err) == 1 and err[0].startswith("error: ") and str(path) in err[0], err


@pytest.mark.parametrize("name, damage, refused_by", CASES, ids=[c[0] for c in CASES])
def test_damaged_file_is_refused_in_one_line(name, damage, refused_by, valid, tmp_path,
                                             capsys):
    path = tmp_path / "damaged.h5"
    shutil.copy(valid, path)
    damage(path)
    for command in ALL:
        code, err = run_cli(command, path, valid, tmp_path, capsys)
        if command in refused_by:
            assert_refused(code, err, path)
        else:
            assert code == 0 and err == [], err


def crash(path):
    os.kill(os.getpid(), signal.SIGSEGV)


def hang(path):
    time.sleep(60)


@pytest.mark.parametrize("opening, fault", [(crash, "crashed (SIGSEGV)"),
                                            (hang, "ran past 1 s")])
def test_a_crash_or_hang_while_opening_is_refused_in_one_line(opening, fault, valid, tmp_path,
                                                             capsys, monkeypatch):
    """Damage that makes the HDF5 library crash or hang, as the opening in a child process
    sees it."""
    monkeypatch.setattr(reader, "Run", opening)
    monkeypatch.setattr(cli, "OPEN_TIMEOUT", 1)
    code, err = run_cli("quicklook", valid, valid, tmp_path, capsys)
    assert_refused(code, err, valid)
    assert fault in err[0]


def interrupted_write(valid, path, ranges, tail=4096, seed=3):
    """valid copied to path as a write killed part-way leaves it (src/storage/undo_journal.cpp):
    the bytes of `ranges` (offset, length) saved in path.journal, then overwritten with noise,
    and `tail` bytes of noise appended past the old end."""
    shutil.copy(valid, path)
    old = path.read_bytes()
    journal = bytearray(b"RBLJRNL1" + struct.pack("<Q", len(old)))
    rng = random.Random(seed)
    with open(path, "r+b") as f:
        for offset, length in ranges:
            journal += struct.pack("<QQ", offset, length) + old[offset:offset + length]
            f.seek(offset)
            f.write(bytes(rng.randrange(256) for _ in range(length)))
        f.seek(0, os.SEEK_END)
        f.write(bytes(rng.randrange(256) for _ in range(tail)))
    # A record cut short by the kill: its bytes were never overwritten, so it is ignored.
    journal += struct.pack("<QQ", 0, 64) + old[:10]
    path.with_name(path.name + ".journal").write_bytes(bytes(journal))


def test_a_run_whose_last_write_was_interrupted_is_read_as_before_that_write(valid, tmp_path,
                                                                             capsys):
    """A run killed in the middle of a write leaves FILE.journal: the analysis reads the file as
    it was before that write, through the journal, says so in one line, and changes neither
    file (rubble rolls the write back on disk when it next opens it)."""
    path = tmp_path / "killed.h5"
    size = valid.stat().st_size
    # The superblock, a stretch in the middle (object headers, B-trees or data) and the end.
    interrupted_write(valid, path, [(0, 96), (size // 3, 2048), (size - 512, 512)])
    damaged, journal = path.read_bytes(), path.with_name("killed.h5.journal").read_bytes()
    with h5py.File(valid, "r") as f:
        names = sorted(f["snapshots"])
    with pytest.warns(UserWarning, match="its last write was interrupted") as caught:
        with open_run(path) as run, open_run(valid) as good:
            assert run.snapshot_count == good.snapshot_count == len(names)
            for k in range(good.snapshot_count):
                a, b = run.snapshot(k), good.snapshot(k)
                assert np.array_equal(a.position, b.position)
                assert np.array_equal(a.velocity, b.velocity)
    assert len(caught) == 1 and "\n" not in str(caught[0].message)
    assert path.read_bytes() == damaged  # untouched
    assert path.with_name("killed.h5.journal").read_bytes() == journal
    for command in ALL:
        code, err = run_cli(command, path, valid, tmp_path, capsys)
        assert code == 0, err
        assert sum("its last write was interrupted" in line for line in err) == 1, err


def test_a_journal_cut_short_in_its_header_changed_nothing(valid, tmp_path):
    """Killed while starting the journal: nothing was overwritten yet."""
    path = tmp_path / "killed.h5"
    shutil.copy(valid, path)
    path.with_name("killed.h5.journal").write_bytes(b"RBLJRN")
    with pytest.warns(UserWarning, match="interrupted"):
        with open_run(path) as run, open_run(valid) as good:
            assert np.array_equal(run.snapshot().position, good.snapshot().position)


def test_a_file_beside_a_journal_that_is_not_rubbles_is_refused_in_one_line(valid, tmp_path,
                                                                            capsys):
    path = tmp_path / "killed.h5"
    shutil.copy(valid, path)
    (tmp_path / "killed.h5.journal").write_bytes(b"NOTAJRNL" + bytes(8))
    for command in ALL:
        code, err = run_cli(command, path, valid, tmp_path, capsys)
        assert_refused(code, err, path)
        assert "not a rubble undo journal" in err[0]


def test_a_missing_file_is_refused_in_one_line(valid, tmp_path, capsys):
    for command in ALL:
        assert_refused(*run_cli(command, tmp_path / "absent.h5", valid, tmp_path, capsys),
                       tmp_path / "absent.h5")


@pytest.mark.parametrize("damage", [set_row("collisions/normal_speed", 0, -1.0),
                                    set_row("collisions/time", 1, np.nan),
                                    set_row("collisions/id", 2, [5, 5])])
def test_a_damaged_collision_log_is_refused_when_read(damage, valid, tmp_path):
    """No command reads the collision log, so the values are checked by Run.collisions."""
    path = tmp_path / "damaged.h5"
    shutil.copy(valid, path)
    damage(path)
    with open_run(path) as run:
        with pytest.raises(RunFormatError, match="/collisions/"):
            run.collisions()


def mutate(data: bytes, rng: random.Random, used: list[int]) -> bytes:
    """One to three ranges of 1 to 64 bytes overwritten with random bytes, each starting on a
    non-zero byte: zeros are mostly unused space, where damage changes nothing."""
    raw = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        at = rng.choice(used)
        end = min(at + rng.randint(1, 64), len(raw))
        raw[at:end] = rng.randbytes(end - at)
    return bytes(raw)


def test_randomly_damaged_files_give_a_result_or_one_line(valid, tmp_path, capsys,
                                                          monkeypatch):
    monkeypatch.setattr(cli, "OPEN_TIMEOUT", 5)
    good = valid.read_bytes()
    used = [i for i, byte in enumerate(good) if byte]
    rng = random.Random(2024)
    for case in range(32):  # about 1 in 8 gives a result, which costs 3 s of plotting
        path = tmp_path / f"mutated{case}.h5"
        path.write_bytes(mutate(good, rng, used))
        for command in ALL:
            code, err = run_cli(command, path, valid, tmp_path / str(case), capsys)
            if code != 0:
                assert_refused(code, err, path)
