"""Presets are data: the built-in TOML files, user presets, and clear errors for broken ones."""

import json
from pathlib import Path

import pytest

from diskmark.engine.plan import PROCESS_OVERHEAD_S, build_plan, run_args
from diskmark.model.settings import Mode, Op, Settings
from diskmark.model.units import KIB, MIB
from diskmark.presets import load_catalog


def labels(preset, profile):
    return [t.label for t in load_catalog(Path("/nonexistent")).get(preset).profile(profile).tests]


def test_builtin_presets_match_crystaldiskmark_8():
    assert labels("default", "default") == ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"]
    assert labels("nvme", "default") == ["SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1"]
    assert labels("default", "peak") == ["SEQ1M Q8T1", "RND4K Q32T1"]
    assert labels("nvme", "peak") == ["SEQ1M Q8T1", "RND4K Q32T16"]
    assert labels("default", "real") == labels("nvme", "real") == ["SEQ1M Q1T1", "RND4K Q1T1"]
    assert labels("default", "demo") == ["SEQ1M Q8T1"]
    flash = load_catalog(Path("/nonexistent")).get("flash")
    assert (flash.measure, flash.interval) == (1, 30)


def test_stable_profile_carries_the_fio_articles_delays():
    stable = load_catalog(Path("/nonexistent")).get("default").profile("stable")
    seq, _, rnd32, rnd1 = stable.tests
    assert seq.delays(Op.READ) == (5, 5) and seq.delays(Op.WRITE) == (5, 20)
    assert rnd32.delays(Op.WRITE) == (20, 5) and rnd1.delays(Op.WRITE) == (30, 5)
    plan = build_plan(load_catalog(Path("/nonexistent")).get("default"),
                      Settings(profile="stable", mode=Mode.WRITE, count=1))
    args = run_args("fio", plan, plan.tests[3])
    assert "--startdelay=30s" in args and "--ramp_time=5s" in args
    assert plan.measure == 10
    # fio counts startdelay from its own start: a test with one runs a process per pass
    assert plan.process_per_pass(plan.tests[3]) and plan.processes(plan.tests[3]) == 2


def test_plan_order_reads_then_writes_then_mixes():
    preset = load_catalog(Path("/nonexistent")).get("default")
    plan = build_plan(preset, Settings(mix=30, count=2, measure=2, interval=1))
    ops = [t.op for t in plan.tests]
    assert ops == [Op.READ] * 4 + [Op.WRITE] * 4 + [Op.MIX] * 4
    assert plan.tests[-1].mix_read == 30 and plan.tests[-1].rw() == "randrw"
    # one continuous fio job per test: warm-up and passes are windows of it
    assert not plan.process_per_pass(plan.tests[0]) and plan.processes(plan.tests[0]) == 1
    assert plan.total_seconds() == pytest.approx(12 * (3 * 2 + PROCESS_OVERHEAD_S) + 11 * 1)
    demo = build_plan(preset, Settings(profile="demo", mix=70))
    assert [t.op for t in demo.tests] == [Op.READ, Op.WRITE], "Demo has no +Mix"


def test_each_planned_test_names_itself_in_full_for_the_status_line():
    preset = load_catalog(Path("/nonexistent")).get("default")
    plan = build_plan(preset, Settings(mix=70))
    titles = [t.title for t in plan.tests]
    assert titles[0] == "SEQ1M Q8T1 Read" and titles[1] == "SEQ1M Q1T1 Read"
    assert "RND4K Q32T1 Write" in titles and titles[-1] == "RND4K Q1T1 Mix R70/W30"
    assert len(set(titles)) == len(titles)  # no two tests read alike


def test_user_preset_loads_and_a_broken_one_is_reported_not_fatal(tmp_path):
    (tmp_path / "a_broken.toml").write_text('id = "x"\n[profiles.default]\ntests = [\n  { pattern = "SEQ"\n')
    (tmp_path / "b_badvalue.toml").write_text(
        'id = "bad"\n\n[profiles.default]\ntests = [\n'
        '  { pattern = "SEQ", block = "3KiB", queues = 1, threads = 1 },\n]\n')
    (tmp_path / "c_good.toml").write_text(
        'id = "mine"\nname = "Mine"\nmeasure = 2\n[profiles.default]\n'
        'tests = [{ pattern = "SEQ", block = "8MiB", queues = 64, threads = 4 }]\n')
    (tmp_path / "d_clash.toml").write_text(
        'id = "default"\n[profiles.default]\ntests = [{ pattern = "SEQ", block = "1MiB", queues = 1, threads = 1 }]\n')
    catalog = load_catalog(tmp_path)
    mine = catalog.get("mine")
    assert mine.measure == 2 and mine.profile("default").tests[0].block == 8 * MIB
    assert catalog.get("default").source == "built-in"
    assert len(catalog.problems) == 3
    broken, badvalue, clash = catalog.problems
    assert "a_broken.toml:" in broken
    assert "b_badvalue.toml:5:" in badvalue and "multiple of 4KiB" in badvalue
    assert "d_clash.toml" in clash and "taken" in clash


def test_block_labels():
    catalog = load_catalog(Path("/nonexistent"))
    spec = catalog.get("nvme").profile("default").tests[1]
    assert (spec.block, spec.name, spec.qt) == (128 * KIB, "SEQ128K", "Q32T1")


def test_every_built_in_description_is_marked_for_translation():
    """A built-in preset's description is read in every language: the catalogs can hold it
    only if diskmark.presets.words marks it."""
    from diskmark.presets.words import DESCRIPTIONS

    built_in = [p.description for p in load_catalog().presets.values() if p.source == "built-in"]
    assert built_in and sorted(built_in) == sorted(DESCRIPTIONS)


def test_an_id_a_shell_would_not_read_as_itself_is_refused_naming_the_file(tmp_path):
    """A preset's and a profile's id are typed after --preset and --profile and held as code
    by the completion scripts: whatever a shell would expand, split, glob or take as an
    option is refused, with the file and its line; ids in any script's letters load."""
    tests = 'tests = [{ pattern = "SEQ", block = "1MiB", queues = 1, threads = 1 }]\n'
    bad_ids = ["$(touch x)", "`x`", "${HOME}", "a b", "a'b", 'a"b', "-x", "a*", "a?", "~a",
               "a;b", "a\\b", "a\tb", "a:b", "é\u0301", "a\u202eb", ""]
    for n, pid in enumerate(bad_ids):
        (tmp_path / f"id{n:02}.toml").write_text(
            f'name = "x"\nid = {json.dumps(pid)}\n[profiles.default]\n{tests}')
    (tmp_path / "profile.toml").write_text(f'id = "p"\n[profiles."$(touch y)"]\n{tests}')
    (tmp_path / "my preset.toml").write_text(f"[profiles.default]\n{tests}")  # id: the name
    (tmp_path / "ok.toml").write_text(f'id = "高速_1.0+x/y-z"\n[profiles."速い"]\n{tests}')
    catalog = load_catalog(tmp_path)
    assert list(catalog.presets)[-1] == "高速_1.0+x/y-z" and len(catalog.presets) == 4
    assert list(catalog.get("高速_1.0+x/y-z").profiles) == ["速い"]
    problems = catalog.problems
    assert len(problems) == len(bad_ids) + 2, problems
    for n, pid in enumerate(bad_ids):
        assert f"id{n:02}.toml:2: id {pid!r} cannot be typed in a shell as it is" in problems[n]
    assert "my preset.toml:1: id is not given, and the file's name 'my preset'" in problems[-2]
    assert "profile.toml:2: profile id '$(touch y)' cannot be typed in a shell" in problems[-1]


def test_a_block_device_runs_without_nocow_and_without_a_mix_unless_consented():
    """One rule for what a device runs, in the engine's plan: the app runs a device with
    what it leaves (it asks for no consent), the command line refuses what it takes away
    from what was typed."""
    from dataclasses import replace

    from diskmark.engine.plan import on_device

    asked = Settings(target="/dev/sdb", mix=70, nocow=True)
    assert on_device(asked) == replace(asked, mix=None, nocow=False)
    assert on_device(asked, consent=True) == replace(asked, nocow=False)
    plain = Settings(target="/dev/sdb")
    assert on_device(plain) == plain
    ops = {t.op for t in build_plan(load_catalog(Path("/nonexistent")).get("default"),
                                    on_device(asked)).tests}
    assert Op.MIX not in ops
