"""Persisted UI settings: round trip, damaged files fall back to defaults and are kept."""

from __future__ import annotations

import json

import pytest

from diskmark.model.settings import DataPattern, Mode, Settings
from diskmark.model.units import GIB, MIB, Unit
from diskmark.store.app_settings import SCHEMA, AppConfig, config_path, load_config, save_config


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("DISKMARK_HOME", str(tmp_path))
    return tmp_path


def damaged_files(home):
    return sorted((home / "config").glob("settings.json.damaged-*"))


def write_settings(text: str):
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_config_lives_under_diskmark_home(home):
    assert config_path() == home / "config" / "settings.json"


def test_missing_file_gives_defaults_without_notice(home):
    cfg, notice = load_config()
    assert cfg == AppConfig()
    assert notice is None


def test_round_trip(home):
    cfg = AppConfig(theme="diskmark-dark", target=str(home), size=16 * MIB, count=1,
                    unit="IOPS", profile="peak", preset="nvme", mix=70, mode="read",
                    data="zeros", direct=False, measure=1.0, interval=0.0)
    path = save_config(cfg)
    assert path == config_path()
    data = json.loads(path.read_text())
    assert data["schema"] == SCHEMA == "diskmark.config/2"
    loaded, notice = load_config()
    assert notice is None
    assert loaded == cfg
    # no temporary files left next to it
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]


def test_defaults_round_trip(home):
    save_config(AppConfig())
    assert load_config() == (AppConfig(), None)


def test_to_settings(home):
    cfg = AppConfig(size=32 * MIB, count=3, mode="write", data="zeros", mix=30,
                    direct=False, measure=2.0, interval=1.0, preset="nvme", profile="peak")
    s = cfg.to_settings("/fallback")
    assert s.target == "/fallback"
    assert (s.size, s.count, s.mix, s.direct, s.measure, s.interval) == (
        32 * MIB, 3, 30, False, 2.0, 1.0)
    assert s.mode is Mode.WRITE and s.data is DataPattern.ZEROS
    assert (s.preset, s.profile) == ("nvme", "peak")
    s.validate()
    assert AppConfig(target="/mnt/x").to_settings("/fallback").target == "/mnt/x"


def test_with_settings_copies_the_engine_settings(home):
    s = Settings(target="/t", size=64 * MIB, count=2, mode=Mode.READ,
                       data=DataPattern.ZEROS, mix=50, direct=False)
    cfg = AppConfig(theme="diskmark-mono", unit="us").with_settings(s)
    assert (cfg.theme, cfg.unit, cfg.target, cfg.size, cfg.count, cfg.mode, cfg.data,
            cfg.mix, cfg.direct) == ("diskmark-mono", "us", "/t", 64 * MIB, 2, "read",
                                     "zeros", 50, False)
    assert cfg.to_settings("/x") == s


@pytest.mark.parametrize("text, why", [
    ("{not json", "not valid JSON"),
    ("", "empty"),
    ("   \n", "empty"),
    ("[1, 2, 3]", "not an object"),
    ('"hello"', "not an object"),
    ('{"theme": "diskmark-dark"}', "not a diskmark settings file"),
    ('{"schema": "other.app/1", "theme": "x"}', "not a diskmark settings file"),
    ('{"schema": "diskmark.config/3", "theme": "diskmark-dark"}', "another diskmark version"),
    ('{"schema": 1}', "not a diskmark settings file"),
])
def test_damaged_file_gives_defaults_and_is_kept(home, text, why):
    path = write_settings(text)
    cfg, notice = load_config()
    assert cfg == AppConfig()
    assert notice is not None
    assert str(path) in notice and why in notice and "defaults are used" in notice
    kept = damaged_files(home)
    assert len(kept) == 1
    assert kept[0].read_text() == text
    assert str(kept[0]) in notice
    # the next save writes fresh settings and leaves the damaged copy alone
    save_config(AppConfig(count=2))
    assert load_config() == (AppConfig(count=2), None)
    assert kept[0].read_text() == text


def test_binary_garbage(home):
    path = config_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe\x00garbage")
    cfg, notice = load_config()
    assert cfg == AppConfig() and "not UTF-8" in notice
    assert damaged_files(home)[0].read_bytes() == b"\xff\xfe\x00garbage"


@pytest.mark.parametrize("field, value", [
    ("count", 12), ("count", 0), ("count", "5"), ("count", 5.0), ("count", True),
    ("size", 1000), ("size", 128 * GIB), ("size", "1GiB"),
    ("unit", "furlongs"), ("unit", 3),
    ("mode", "sideways"), ("data", "ones"), ("direct", "yes"), ("direct", 1),
    ("mix", 75), ("mix", 0), ("measure", 0.5), ("measure", -1), ("measure", 1e9),
    ("interval", -1), ("interval", "5"), ("unstable_pct", 0), ("unstable_pct", "5"),
    ("unstable_pct", 500),
    ("theme", ""), ("theme", 7), ("target", ""), ("target", 42),
    ("profile", ""), ("profile", "../x"), ("preset", None),
])
def test_bad_value_falls_back_for_that_field_only(home, field, value):
    good = AppConfig(theme="diskmark-contrast", count=3, unit="GB/s", size=64 * MIB)
    data = good.to_dict()
    data[field] = value
    text = json.dumps(data)
    write_settings(text)
    cfg, notice = load_config()
    expected_d = {k: v for k, v in good.to_dict().items() if k != "schema"}
    expected_d[field] = getattr(AppConfig(), field)
    assert cfg == AppConfig(**expected_d)
    assert notice is not None and field in notice
    assert "values that could not be read" in notice
    assert damaged_files(home)[0].read_text() == text


def test_unit_aliases_are_normalised(home):
    write_settings(json.dumps({"schema": SCHEMA, "unit": "µs"}))
    cfg, notice = load_config()
    assert notice is None and cfg.unit == "us" and cfg.unit_enum is Unit.US


def test_unknown_keys_are_ignored(home):
    write_settings(json.dumps({"schema": SCHEMA, "count": 2, "future_field": [1, 2]}))
    cfg, notice = load_config()
    assert notice is None and cfg == AppConfig(count=2)
    assert damaged_files(home) == []


def test_partial_file_keeps_missing_fields_default(home):
    write_settings(json.dumps({"schema": SCHEMA, "theme": "diskmark-mono"}))
    assert load_config() == (AppConfig(theme="diskmark-mono"), None)


def test_save_moves_aside_a_file_damaged_while_running(home):
    save_config(AppConfig(count=4))
    path = config_path()
    path.write_text("{oops")  # edited by hand, badly, while the app ran
    save_config(AppConfig(count=6))
    assert load_config() == (AppConfig(count=6), None)
    assert [p.read_text() for p in damaged_files(home)] == ["{oops"]


def test_two_damaged_files_in_the_same_second_both_kept(home):
    write_settings("{one")
    load_config()
    write_settings("{two")
    load_config()
    assert sorted(p.read_text() for p in damaged_files(home)) == ["{one", "{two"]


def test_a_target_that_is_not_utf8_is_saved_and_read_back_exactly(home):
    """A directory named with the byte 0xff (os.fsdecode keeps it as a lone surrogate) must
    not stop the settings from being saved, and must come back as the same path."""
    target = str(home) + "/\udcff"
    save_config(AppConfig(target=target, compare="ü"))
    raw = config_path().read_bytes()
    raw.decode("utf-8")  # the file is valid UTF-8
    cfg, notice = load_config()
    assert notice is None and cfg.target == target and cfg.compare == "ü"


def test_config_does_not_import_textual():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", "import diskmark.store.app_settings, sys; "
                          "print(any(m.startswith('textual') for m in sys.modules))"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_first_target_is_home_not_where_the_app_was_started(home, tmp_path, monkeypatch):
    """./start.sh runs from the checkout: the app must not start by benchmarking that."""
    from diskmark.app.preferences import load_preferences

    user = tmp_path / "user"
    user.mkdir()
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    monkeypatch.setenv("HOME", str(user))
    monkeypatch.chdir(checkout)
    state, notices = load_preferences()
    assert state.settings.target == str(user) and notices == []
    save_config(AppConfig(target=str(tmp_path / "unplugged")))
    state, notices = load_preferences()
    assert state.settings.target == str(user)
    assert notices == [f"The last target {tmp_path / 'unplugged'} is not there any more; "
                       f"using {user}."]


def test_reports_go_to_the_documents_directory(monkeypatch, tmp_path):
    from diskmark.files.paths import reports_dir

    monkeypatch.delenv("DISKMARK_HOME", raising=False)
    monkeypatch.setenv("XDG_DOCUMENTS_DIR", str(tmp_path / "Docs"))
    assert reports_dir() == tmp_path / "Docs" / "diskmark"
    monkeypatch.setenv("DISKMARK_HOME", str(tmp_path / "h"))
    assert reports_dir() == tmp_path / "h" / "reports"


def test_an_earlier_files_count_of_5_was_its_default_and_reads_as_todays(home):
    """diskmark.config/1 was written with every field, CrystalDiskMark 8's 5 passes among
    them, whether or not anyone chose 5: it starts with CrystalDiskMark 9's 3. Its other
    values, and any other count (chosen), stay; the next save writes the new schema, whose
    count is the user's from then on."""
    write_settings(json.dumps({"schema": "diskmark.config/1", "count": 5, "size": 16 * MIB,
                               "theme": "diskmark-dark", "preset": "nvme"}))
    cfg, notice = load_config()
    assert notice is None and damaged_files(home) == []
    assert (cfg.count, cfg.size, cfg.theme, cfg.preset) == (3, 16 * MIB, "diskmark-dark", "nvme")
    assert cfg.to_settings("/t").count == 3 == Settings().count
    write_settings(json.dumps({"schema": "diskmark.config/1", "count": 7}))
    assert load_config() == (AppConfig(count=7), None)
    # a value of the wrong type is still told as wrong, not taken for the old default
    write_settings(json.dumps({"schema": "diskmark.config/1", "count": 5.0}))
    cfg, notice = load_config()
    assert cfg.count == 3 and notice is not None and "count" in notice


def test_a_count_of_5_kept_under_the_new_schema_is_the_users(home):
    save_config(AppConfig(count=5))
    assert json.loads(config_path().read_text())["schema"] == "diskmark.config/2"
    assert load_config() == (AppConfig(count=5), None)
    write_settings(json.dumps({"schema": "diskmark.config/2", "count": 5}))
    assert load_config()[0].count == 5
