"""The store: history and baselines in the SQLite file under DISKMARK_HOME (set per test by
conftest's isolated_home), atomic saves, damaged files (JSON files in the directories of
earlier versions), names, export and import."""

from __future__ import annotations

import json
import math
import re
import sqlite3
from pathlib import Path

import pytest

from diskmark.model.facts import SystemFacts
from diskmark.model.results import RunResult, SessionResult, TestResult, TestSpec
from diskmark.model.settings import Mode, Op, Settings
from diskmark.model.units import GIB, MIB
from diskmark.report.formatting import format_listing
from diskmark.store import database
from diskmark.store import store as store_mod
from diskmark.store.entry import Entry
from diskmark.store.errors import Damaged, InvalidFile, NameTaken, NotFound, StoreError, StoreIOError
from diskmark.store.exchange import export_baseline, import_baseline
from diskmark.store.schema import SCHEMA, check_name, slug
from diskmark.store.store import Store

SEQ = TestSpec("SEQ", MIB, 8, 1)
RND = TestSpec("RND", 4096, 1, 1)


def run(mb_s: float, lat_us: float = 1000.0, block: int = MIB) -> RunResult:
    return RunResult(mb_s=mb_s, iops=mb_s * 1e6 / block, lat_us=lat_us,
                     io_bytes=int(mb_s * 1e6), runtime_ms=1000, bw_samples=[mb_s, mb_s])


def make_session(started: str = "2026-01-02T03:04:05+00:00", mb: float = 1000.0,
                 size: int = GIB, **system) -> SessionResult:
    facts = SystemFacts(target="/mnt/x", mountpoint="/mnt/x", device="/dev/nvme0n1",
                        fstype="ext4", model="Samsung 990", kernel="6.1.0", os="Debian 12")
    for k, v in system.items():
        setattr(facts, k, v)
    return SessionResult(
        settings=Settings(target="/mnt/x", size=size, count=2, measure=5, interval=5),
        system=facts, preset_name="Default", profile_name="Default", measure=5, interval=5,
        fio_version="fio-3.33", diskmark_version="0.1.0", started=started,
        finished=started,
        tests=[TestResult(0, SEQ, Op.READ, runs=[run(mb), run(mb * 0.98)], warmup=run(mb * 0.9)),
               TestResult(0, SEQ, Op.WRITE, runs=[run(mb / 2), run(mb / 2.1)]),
               TestResult(3, RND, Op.READ, runs=[run(50, 80, 4096), run(49, 82, 4096)])])


@pytest.fixture
def store() -> Store:
    return Store()


def baseline_files(store: Store) -> list[str]:
    """The file name each saved baseline exports to, and any file left in the directory of
    earlier versions (damaged, say)."""
    return sorted(e.file_name for e in store.baselines())


def saved_document(store: Store, name: str) -> dict:
    """Baseline ``name`` as its diskmark.saved/1 export holds it."""
    return store.get_baseline(name).to_file_dict()


# --- round trips -------------------------------------------------------------------------


def test_store_lives_in_diskmark_home(store, isolated_home):
    assert store.root == isolated_home / "data"
    entry = store.save_baseline(make_session(), "first")
    assert entry.path == isolated_home / "data" / "diskmark.sqlite3" and entry.path.exists()


def test_baseline_round_trip(store, tmp_path):
    session = make_session()
    entry = store.save_baseline(session, "new NVMe, ext4", note="firmware 4B2QGXA7")
    assert entry.kind == "baseline" and entry.ok and entry.path.exists()
    data = json.loads(export_baseline(store, "new NVMe, ext4", tmp_path / "x.json").read_text())
    assert data["schema"] == SCHEMA == "diskmark.saved/1"
    assert data["kind"] == "baseline" and data["name"] == "new NVMe, ext4"
    assert data["note"] == "firmware 4B2QGXA7" and data["saved"] and data["diskmark_version"]
    assert data["result"] == session.to_dict()

    got = Store().get_baseline("new NVMe, ext4")
    assert got.name == "new NVMe, ext4" and got.note == "firmware 4B2QGXA7"
    assert got.session.to_dict() == session.to_dict()
    assert got.session.tests[0].warmup.mb_s == pytest.approx(900)
    assert got.device == "/dev/nvme0n1" and got.fstype == "ext4" and got.model == "Samsung 990"
    assert [e.name for e in store.baselines()] == ["new NVMe, ext4"]


def test_explicit_root(tmp_path):
    s = Store(tmp_path / "elsewhere")
    s.save_history(make_session())
    assert (tmp_path / "elsewhere" / "diskmark.sqlite3").exists() and len(s.history()) == 1
    assert Store().history() == []  # the default root is untouched


def test_history_newest_first(store):
    for started in ("2026-01-02T10:00:00+00:00", "2026-03-01T09:00:00+01:00",
                    "2025-12-31T23:59:59-05:00"):
        store.save_history(make_session(started=started))
    entries = store.history()
    assert [e.started for e in entries] == ["2026-03-01T09:00:00+01:00",
                                            "2026-01-02T10:00:00+00:00",
                                            "2025-12-31T23:59:59-05:00"]
    assert all(e.kind == "history" and e.ok for e in entries)
    for e in entries:
        assert re.fullmatch(r"\d{8}T\d{6}Z-[0-9a-f]{6}\.json", e.file_name)
        assert e.name == Path(e.file_name).stem
    # the UTC timestamp in the id: 2025-12-31 23:59:59 -05:00 is 2026-01-01 04:59:59 UTC
    assert entries[2].name.startswith("20260101T045959Z-")
    assert store.get_history(entries[0].name).session.started == entries[0].started


def test_two_saves_in_the_same_second_are_two_files(store):
    a = store.save_history(make_session())
    b = store.save_history(make_session())
    assert a.name != b.name and a.id != b.id and len(store.history()) == 2


def test_promote_history_entry(store):
    h = store.save_history(make_session(mb=1234))
    b = store.promote(h, "from history", "kept")
    assert store.get_baseline("from history").session.tests[0].best_mb_s == 1234
    assert b.note == "kept"
    store.promote(h.name, "by id")
    assert {e.name for e in store.baselines()} == {"from history", "by id"}
    with pytest.raises(NameTaken):
        store.promote(h, "by id")


def test_rename_and_delete(store):
    store.save_baseline(make_session(), "old name", "a note")
    store.save_baseline(make_session(), "other")
    with pytest.raises(NameTaken):
        store.rename_baseline("old name", "other")
    renamed = store.rename_baseline("old name", "new name")
    assert renamed.note == "a note"
    assert [e.name for e in store.baselines()] == ["new name", "other"]
    with pytest.raises(NotFound):
        store.get_baseline("old name")
    deleted = store.delete_baseline("new name")
    assert store.find_baseline(deleted.name) is None
    assert [e.name for e in store.baselines()] == ["other"]
    with pytest.raises(NotFound, match="no baseline named 'gone'.*'other'"):
        store.delete_baseline("gone")


def test_headline(store):
    entry = store.save_baseline(make_session(mb=800), "h")
    assert entry.headline() == ("SEQ1M Q8T1", 800, 400)


# --- names -------------------------------------------------------------------------------


def test_distinct_names_get_distinct_files(store):
    names = ["NVMe / ext4", "nvme-ext4", "NVMe ext4", "nvme ext4", "Ünïcode 🚀", "???", "..",
             "../../etc/passwd", "a" * 200]
    for n in names:
        store.save_baseline(make_session(), n)
    files = baseline_files(store)
    assert len(files) == len(names)
    for f in files:
        assert re.fullmatch(r"[a-z0-9-]{1,49}-[0-9a-f]{8}\.json", f), f
    assert sorted(e.name for e in store.baselines()) == sorted(names)
    for n in names:
        assert store.get_baseline(n).name == n
    assert slug("???").startswith("baseline-")
    assert not (store.root.parent / "etc").exists()


def test_name_normalization():
    assert check_name("  spaced  ") == "spaced"
    # NFC: a composed and a decomposed é are the same name
    assert slug("caf\u00e9") == slug("cafe\u0301")
    for bad in ("", "   ", "two\nlines", "tab\there", "bell\x07", "x" * 201):
        with pytest.raises(StoreError):
            check_name(bad)


def test_name_taken_is_not_replaced_silently(store):
    first = store.save_baseline(make_session(mb=100), "base", "first")
    before = saved_document(store, "base")
    with pytest.raises(NameTaken, match="exists already"):
        store.save_baseline(make_session(mb=200), "base", "second")
    assert saved_document(store, "base") == before
    with pytest.raises(NameTaken):
        store.check_free("base")
    assert store.check_free("base", replace=True).name == "base"
    assert store.check_free("free") is None
    replaced = store.save_baseline(make_session(mb=200), "base", "second", replace=True)
    assert replaced.file_name == first.file_name
    got = store.get_baseline("base")
    assert got.note == "second" and got.session.tests[0].best_mb_s == 200
    assert len(baseline_files(store)) == 1


def test_same_name_under_a_foreign_file_name_counts_as_taken(store, tmp_path):
    """A baseline file copied by hand into the baselines directory, under any file name, is
    imported by its name; that name is then taken."""
    other = Store(tmp_path / "other")
    other.save_baseline(make_session(), "moved")
    store.baselines_dir.mkdir(parents=True)
    copied = export_baseline(other, "moved", store.baselines_dir / "hand-copied.json")
    assert store.get_baseline("moved").ok and not copied.exists()
    assert (store.imported_dir / "baselines" / "hand-copied.json").exists()  # kept, aside
    with pytest.raises(NameTaken):
        store.save_baseline(make_session(), "moved")
    store.save_baseline(make_session(mb=5), "moved", replace=True)
    assert baseline_files(store) == [store.baseline_path("moved").name]
    assert store.get_baseline("moved").session.tests[0].best_mb_s == 5


# --- damaged files -----------------------------------------------------------------------


def _valid_text() -> str:
    return json.dumps(Entry(name="tmp-valid", note="", saved="2026-01-01T00:00:00+00:00",
                            path=Path("x"), kind="baseline",
                            session=make_session()).to_file_dict(), indent=2)


def _mutated(fn) -> str:
    d = json.loads(_valid_text())
    fn(d)
    return json.dumps(d)


DAMAGED = {
    "empty": (lambda: "", "empty file"),
    "blank": (lambda: "  \n\n", "empty file"),
    "truncated": (lambda: _valid_text()[:500], "not valid JSON (truncated?)"),
    "garbage": (lambda: "this is not json", "not valid JSON"),
    "list": (lambda: "[1, 2, 3]", "not a diskmark file"),
    "foreign": (lambda: json.dumps({"hello": "world"}), "not a diskmark file (no schema field)"),
    "other-schema": (lambda: json.dumps({"schema": "someapp/3", "x": 1}),
                     "not a diskmark file (schema 'someapp/3')"),
    "future": (lambda: _mutated(lambda d: d.update(schema="diskmark.saved/2")),
               "written by a newer diskmark (schema diskmark.saved/2)"),
    "result-future": (lambda: _mutated(lambda d: d["result"].update(schema="diskmark.result/7")),
                      "schema 'diskmark.result/7'"),
    "no-result": (lambda: _mutated(lambda d: d.pop("result")), "lacks result"),
    "negative": (lambda: _mutated(lambda d: d["result"]["tests"][0]["runs"][0].update(mb_s=-5)),
                 "mb_s is negative"),
    "bad-name": (lambda: _mutated(lambda d: d.update(name="a\nb")), "printable"),
}


@pytest.mark.parametrize("kind", sorted(DAMAGED))
def test_damaged_file_is_listed_with_its_reason(store, kind):
    make, reason = DAMAGED[kind]
    store.save_baseline(make_session(), "good")
    store.baselines_dir.mkdir(parents=True, exist_ok=True)  # as an earlier diskmark left it
    bad = store.baselines_dir / f"{kind}.json"
    bad.write_text(make())
    entries = {e.path.name: e for e in store.baselines()}
    assert entries[bad.name].damaged is not None
    assert reason in entries[bad.name].damaged, entries[bad.name].damaged
    assert entries[bad.name].session is None and not entries[bad.name].ok
    assert entries[bad.name].name == kind  # the file stem stands in for the unknown name
    assert entries[store.database.name].ok and entries[store.database.name].name == "good"
    with pytest.raises(Damaged, match=re.escape(reason)):
        store.get_baseline(kind)
    assert store.get_baseline(kind, allow_damaged=True).damaged
    listing = format_listing(store.baselines())
    assert f"DAMAGED: {entries[bad.name].damaged}" in listing and "good" in listing


def test_unreadable_and_odd_files_do_not_crash_listings(store):
    store.baselines_dir.mkdir(parents=True)
    (store.baselines_dir / "binary.json").write_bytes(b"\xff\xfe\x00garbage")
    (store.baselines_dir / "a-directory.json").mkdir()
    (store.baselines_dir / ".hidden.json.1234.tmp").write_text("{}")  # a temp file: ignored
    (store.baselines_dir / "notes.txt").write_text("not ours")  # not .json: ignored
    store.history_dir.mkdir(parents=True)
    (store.history_dir / "broken.json").write_text('{"schema": "diskmark.saved/1", "ki')
    store.save_history(make_session())
    reasons = {e.path.name: e.damaged for e in store.baselines()}
    assert reasons == {"binary.json": "not UTF-8 text",
                       "a-directory.json": "not a regular file (a directory)"}
    history = store.history()
    assert len(history) == 2
    assert sum(1 for e in history if e.damaged and "truncated" in e.damaged) == 1


def test_damaged_file_under_the_name_is_never_overwritten_silently(store):
    path = store.baseline_path("precious")
    path.parent.mkdir(parents=True)
    path.write_text('{"schema": "diskmark.saved/1", "kind": "baseline", "na')
    original = path.read_bytes()
    with pytest.raises(NameTaken, match="is damaged"):
        store.save_baseline(make_session(), "precious")
    assert path.read_bytes() == original
    entry = store.save_baseline(make_session(), "precious", replace=True)
    assert entry.file_name == path.name and store.get_baseline("precious").ok
    aside = list(path.parent.glob(f"{path.name}.damaged-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == original
    # the moved-aside file is not a .json file: it is not listed
    assert [e.name for e in store.baselines()] == ["precious"]


def test_delete_a_damaged_file_by_its_stem(store):
    (store.baselines_dir).mkdir(parents=True)
    (store.baselines_dir / "junk.json").write_text("{")
    store.delete_baseline("junk")
    assert store.baselines() == []


# --- atomic saves ------------------------------------------------------------------------


def _fail_mid_save(monkeypatch, error: str) -> list:
    """Make every save fail after its row is written and before its transaction commits, as
    a full disk or an I/O error would: the database must hold what it held before."""
    real = database.insert
    calls = []

    def half_then_fail(conn, *args, **kw):
        calls.append(real(conn, *args, **kw))
        raise sqlite3.OperationalError(error)

    monkeypatch.setattr(database, "insert", half_then_fail)
    calls.append(lambda: monkeypatch.setattr(database, "insert", real))  # calls[0]() restores
    return calls


@pytest.mark.parametrize("error", ["database or disk is full", "disk I/O error"])
def test_interrupted_replace_leaves_the_old_baseline(store, monkeypatch, error):
    store.save_baseline(make_session(mb=100), "base", "old")
    before = saved_document(store, "base")
    calls = _fail_mid_save(monkeypatch, error)
    with pytest.raises(StoreIOError, match=error):
        store.save_baseline(make_session(mb=999), "base", "new", replace=True)
    calls[0]()
    assert len(calls) == 2, "the save never reached the step that was made to fail"
    assert saved_document(store, "base") == before
    assert store.get_baseline("base").note == "old"


def test_a_real_full_disk_leaves_the_old_baseline(store, monkeypatch):
    """SQLite's own 'disk is full', from a database that may not grow (max_page_count)."""
    store.save_baseline(make_session(mb=100), "base", "old")
    before = saved_document(store, "base")
    real_connect = sqlite3.connect

    def capped(*args, **kw):
        conn = real_connect(*args, **kw)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
        return conn

    big = make_session(mb=999)
    big.tests[0].runs = big.tests[0].runs * 400  # needs more pages than the file has
    monkeypatch.setattr(database.sqlite3, "connect", capped)
    with pytest.raises(StoreIOError, match="full"):
        store.save_baseline(big, "base", "new", replace=True)
    monkeypatch.setattr(database.sqlite3, "connect", real_connect)
    assert saved_document(store, "base") == before


def test_interrupted_new_baseline_leaves_nothing(store, monkeypatch):
    store.save_baseline(make_session(), "existing")
    calls = _fail_mid_save(monkeypatch, "disk I/O error")
    with pytest.raises(StoreIOError, match="I/O error"):
        store.save_baseline(make_session(), "new one")
    with pytest.raises(StoreIOError):
        store.save_history(make_session())
    calls[0]()
    assert baseline_files(store) == [store.baseline_path("existing").name]
    assert store.history() == [] and store.count() == 0


def test_non_finite_figures_are_not_saved(store):
    s = make_session()
    s.tests[0].runs[0].mb_s = math.nan
    with pytest.raises(StoreError, match="finite"):
        store.save_baseline(s, "nan")
    with pytest.raises(StoreError):
        store.save_history(s)
    assert store.baselines() == [] and store.history() == []


def test_nothing_measured_is_not_a_baseline(store):
    s = make_session()
    s.tests = []
    with pytest.raises(StoreError, match="without any measured test"):
        store.save_baseline(s, "empty")


# --- export / import ---------------------------------------------------------------------


def test_export_import_round_trip(store, tmp_path):
    session = make_session(mb=777)
    store.save_baseline(session, "shared", "someone's drive")
    dest = tmp_path / "out" / "shared.json"
    with pytest.raises(StoreIOError, match="the directory .*out does not exist"):
        export_baseline(store, "shared", dest)  # made by no one: a mistyped name is refused
    assert not dest.parent.exists()
    dest.parent.mkdir()
    assert export_baseline(store, "shared", dest) == dest
    with pytest.raises(StoreError, match="exists"):
        export_baseline(store, "shared", dest)
    dest.write_text("keep me")
    with pytest.raises(StoreError):
        export_baseline(store, "shared", dest)
    assert dest.read_text() == "keep me"
    export_baseline(store, "shared", dest, replace=True)
    in_dir = export_baseline(store, "shared", tmp_path)
    assert in_dir.parent == tmp_path and in_dir.name == store.baseline_path("shared").name

    with pytest.raises(NameTaken):
        import_baseline(store, dest)
    got = import_baseline(store, dest, name="copy")
    assert got.note == "someone's drive"
    assert store.get_baseline("copy").session.to_dict() == session.to_dict()
    store.delete_baseline("shared")
    assert import_baseline(store, dest).name == "shared"
    import_baseline(store, dest, replace=True)
    assert sorted(e.name for e in store.baselines()) == ["copy", "shared"]


def test_import_a_plain_json_report(store, tmp_path):
    src = tmp_path / "friend's nvme.json"
    src.write_text(json.dumps(make_session(mb=3000).to_dict()))
    entry = import_baseline(store, src)
    assert entry.name == "friend's nvme"
    assert store.get_baseline("friend's nvme").session.tests[0].best_mb_s == 3000


def _set_run(field, value):
    return lambda d: d["result"]["tests"][0]["runs"][0].__setitem__(field, value)


BAD_IMPORTS = {
    "negative": (_set_run("mb_s", -1.0), "mb_s is negative"),
    "nan": (_set_run("iops", math.nan), "iops is not a finite number"),
    "infinity": (_set_run("lat_us", math.inf), "lat_us is not a finite number"),
    "string": (_set_run("mb_s", "fast"), "mb_s is not a number ('fast')"),
    "numeric-string": (_set_run("mb_s", "1000"), "is not a number"),
    "bool": (_set_run("iops", True), "iops is not a number"),
    "null": (_set_run("lat_us", None), "lat_us is not a number"),
    "missing-figure": (lambda d: d["result"]["tests"][0]["runs"][0].pop("lat_us"), "lacks lat_us"),
    "percentile": (_set_run("lat_percentiles", {"99": -3}), "percentile 99 is negative"),
    "bw-sample": (_set_run("bw_samples", [1, "x"]), "bandwidth sample 1 is not a number"),
    "warmup": (lambda d: d["result"]["tests"][0]["warmup"].__setitem__("mb_s", -2), "warmup"),
    "size-string": (lambda d: d["result"]["settings"].__setitem__("size", "1GiB"),
                    "size must be a positive whole number"),
    "no-settings": (lambda d: d["result"].pop("settings"), "lacks settings"),
    "no-tests": (lambda d: d["result"].pop("tests"), "lacks tests"),
    "tests-not-list": (lambda d: d["result"].__setitem__("tests", {"a": 1}), "tests is not a list"),
    "bad-kind": (lambda d: d["result"]["tests"][0].__setitem__("kind", "erase"),
                 "kind must be one of read, write, mix, not 'erase'"),
    "bad-spec": (lambda d: d["result"]["tests"][0]["spec"].__setitem__("queues", 0),
                 "queues must be a positive"),
    "bad-mode": (lambda d: d["result"]["settings"].__setitem__("mode", "sideways"),
                 "settings mode must be one of rw, read, write"),
    "empty-tests": (lambda d: d["result"].__setitem__("tests", []), "no measured test"),
    "future": (lambda d: d.__setitem__("schema", "diskmark.saved/2"), "newer diskmark"),
    "foreign": (lambda d: d.__setitem__("schema", "crystaldiskmark"), "not a diskmark file"),
    "name-not-text": (lambda d: d.__setitem__("name", 42), "name must be text"),
    "note-not-text": (lambda d: d.__setitem__("note", ["x"]), "note must be text"),
}


@pytest.mark.parametrize("case", sorted(BAD_IMPORTS))
def test_import_rejects_bad_values_and_writes_nothing(store, tmp_path, case):
    mutate, reason = BAD_IMPORTS[case]
    store.save_baseline(make_session(), "shared")
    src = tmp_path / "in.json"
    export_baseline(store, "shared", src)
    store.delete_baseline("shared")
    d = json.loads(src.read_text())
    mutate(d)
    src.write_text(json.dumps(d))  # json writes NaN/Infinity literals, as a careless tool would
    with pytest.raises(InvalidFile) as info:
        import_baseline(store, src, name="imported")
    assert reason in str(info.value), str(info.value)
    assert str(src) in str(info.value)
    assert baseline_files(store) == []


@pytest.mark.parametrize("content,reason", [("", "empty file"), ('{"schema": "diskm', "not valid JSON"),
                                            ("[]", "not a diskmark file")])
def test_import_rejects_unreadable_files(store, tmp_path, content, reason):
    src = tmp_path / "in.json"
    src.write_text(content)
    with pytest.raises(InvalidFile, match=re.escape(reason)):
        import_baseline(store, src)
    with pytest.raises(NotFound):
        import_baseline(store, tmp_path / "missing.json")
    assert baseline_files(store) == []


def test_import_rejects_a_bad_name(store, tmp_path):
    store.save_baseline(make_session(), "x")
    src = export_baseline(store, "x", tmp_path / "x.json")
    with pytest.raises(InvalidFile, match="printable"):
        import_baseline(store, src, name="bad\nname")


def test_entry_of_damaged_file_cannot_be_exported(store, tmp_path):
    store.baselines_dir.mkdir(parents=True)
    (store.baselines_dir / "junk.json").write_text("{")
    with pytest.raises(Damaged):
        export_baseline(store, "junk", tmp_path / "out.json")
    assert not (tmp_path / "out.json").exists()


def test_store_module_is_free_of_ui_imports():
    assert "textual" not in Path(store_mod.__file__).read_text()
    assert isinstance(Entry(name="n", note="", saved="", path=Path("x"), kind="baseline"), Entry)
    assert Mode.READ  # the model's enums are what the store round-trips


@pytest.mark.parametrize("key,value,reason", [
    ("device", 5, "system device must be text"),
    ("total_bytes", -1, "system total_bytes is negative"),
    ("rotational", "yes", "system rotational must be true, false or null"),
])
def test_bad_system_facts_are_refused(store, tmp_path, key, value, reason):
    store.save_baseline(make_session(), "x")
    d = json.loads(export_baseline(store, "x", tmp_path / "x.json").read_text())
    d["result"]["system"][key] = value
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(d))
    with pytest.raises(InvalidFile, match=reason):
        import_baseline(store, src, name="y")


def test_unknown_newer_fields_are_tolerated(store, tmp_path):
    store.save_baseline(make_session(), "x")
    d = json.loads(export_baseline(store, "x", tmp_path / "x.json").read_text())
    d["result"]["system"]["nvme_firmware"] = {"rev": 3}
    d["result"]["some_new_section"] = [1, 2]
    d["extra_header"] = True
    src = tmp_path / "newer.json"
    src.write_text(json.dumps(d))
    assert import_baseline(store, src, name="y").ok


def test_a_taken_id_gets_another_and_a_taken_name_is_named(store):
    """SQLite's UNIQUE refusal reaches the store as a name taken: a run whose wanted id is
    taken (a report imported twice elsewhere) gets a fresh one, and a baseline saved under a
    taken name in a race says so rather than calling the database file broken."""
    first = store.save_history(make_session())
    again = store.add_history(first.document, entry_id=first.name)
    assert again.name != first.name and again.name.startswith(first.name[:16])
    store.save_baseline(make_session(), "fast")
    with pytest.raises(NameTaken):
        store._insert("baseline", "fast", "", first.document)


@pytest.mark.parametrize("zone", ["America/Los_Angeles", "Asia/Tokyo"])
def test_a_start_no_time_zone_can_place_is_kept_out_of_time(tmp_path, monkeypatch, zone):
    """A report whose start is a date Python holds but that cannot be placed in time in every
    zone (year 1; 9999/12/31, year 10000 in UTC west of Greenwich): imported, listed, sorted
    and pruned as a run without a start, never "non-finite figures" nor an OverflowError;
    one a day inside the range keeps its place (diskmark.model.moments)."""
    import time

    from history_data import real_result

    from diskmark.store.exchange import import_history

    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        paths = []
        for n, started in enumerate(("0001-01-01T00:00:00", "9999-12-31T23:59:59",
                                     "9999-12-30T12:00:00")):
            doc = real_result()
            doc["started"] = started
            paths.append(tmp_path / f"r{n}.json")
            paths[-1].write_text(json.dumps(doc))
        store = Store()
        assert [o[1] for o in import_history(store, paths)] == ["imported"] * 3
        first, *unplaced = store.page(None, 0)  # newest first, runs without a start last
        assert first.started == "9999-12-30T12:00:00" and first.started_ts is not None
        assert sorted(r.started for r in unplaced) == ["0001-01-01T00:00:00",
                                                       "9999-12-31T23:59:59"]
        assert all(r.started_ts is None for r in unplaced)
        assert store.prune(older_than_days=1, dry_run=True) == []
        assert len(store.history()) == 3
        assert import_baseline(store, paths[0], "old").ok
    finally:
        monkeypatch.undo()
        time.tzset()
