"""A result (or a result against a reference) as one self-contained HTML page.

What people share of CrystalDiskMark is a picture of its window, so the page leads with the
grid of tiles in the theme's colours (CDM's log-scale meter behind each figure; with a
reference, each tile's change, judged by the comparison's one rule), then what a reader
needs to trust or reproduce the figures: every test's per-second bandwidth as inline SVG,
the comparison table, the system facts and the exact fio command of every test.

Self-contained: one file with its style inline, no script, no font, image or stylesheet
fetched, so it opens offline, in a mail client or an archive years later. Every string from
the data is HTML-escaped and its control and format characters shown as ``\\x1b``,
``\\u202e``, as the CLI does. Every word a reader sees is in the language in use, and the
page says which (``<html lang>``).
"""

from __future__ import annotations

import shlex
from datetime import datetime
from html import escape

from diskmark import __version__
from diskmark.locale import PSEUDO, _, language, ngettext, pgettext
from diskmark.locale.kept import said_kept
from diskmark.locale.text_safety import shown
from diskmark.model.results import SessionResult, Status, TestResult
from diskmark.model.settings import Op
from diskmark.model.units import Unit, format_size
from diskmark.presets.words import said_name
from diskmark.report.compare import GATE_UNITS, Comparison, compare
from diskmark.report.drive_lines import drive_line
from diskmark.report.formatting import (
    BETTER,
    MODE_LABELS,
    SAME,
    WORSE,
    disk_kind,
    format_figure,
    meter_fraction,
    op_word,
    verdict_word,
)
from diskmark.report.share.svg import bandwidth_svg
from diskmark.report.text import (
    STATUS_WORDS,
    _grid,
    column_name,
    cpu_limited_words,
    io_mode_text,
    usage_text,
)

_GLYPH = {BETTER: "▲", WORSE: "▼", SAME: "="}


def _e(text: object) -> str:
    return escape(shown(str(text)))


def _date(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).strftime("%Y/%m/%d %H:%M:%S")
    except (TypeError, ValueError):
        return iso or _("unknown date")


def _style(c: dict[str, str]) -> str:
    return f"""
*{{box-sizing:border-box}}
body{{margin:0;padding:24px;background:{c['background']};color:{c['foreground']};
 font:14px/1.4 "DejaVu Sans","Liberation Sans",Arial,sans-serif}}
main{{max-width:1040px;margin:0 auto}}
h1{{margin:0;font-size:22px;color:{c['primary']}}}
h2{{font-size:16px;margin:28px 0 8px;color:{c['column-header-foreground']}}}
.sub{{color:{c['foreground']};opacity:.8;margin:4px 0 16px}}
.grid{{display:grid;gap:8px;align-items:stretch;background:{c['surface']};padding:12px;
 border:1px solid {c['tile-border']};border-radius:8px}}
.head{{text-align:center;font-weight:bold;color:{c['column-header-foreground']};
 align-self:end}}
.rowbtn{{background:{c['row-button-background']};color:{c['row-button-foreground']};
 border-radius:6px;display:flex;flex-direction:column;justify-content:center;
 align-items:center;font-weight:bold;min-height:72px}}
.tile{{position:relative;background:{c['meter-background']};border:1px solid {c['tile-border']};
 border-radius:6px;min-height:72px;overflow:hidden;display:flex;flex-direction:column;
 justify-content:center;align-items:flex-end;padding:6px 12px}}
.meter{{position:absolute;left:0;top:0;bottom:0;background:{c['meter-color']}}}
.fig{{position:relative;font:bold 30px/1.1 "DejaVu Sans Mono","Liberation Mono",monospace;
 color:{c['tile-foreground']}}}
.none{{opacity:.4}}
.delta{{position:relative;font-size:13px;font-weight:bold}}
.better{{color:{c['better-color']}}} .worse{{color:{c['worse-color']}}} .same{{color:{c['same-color']}}}
.cpu,.layer{{position:relative;font-size:11px;color:{c['warning']}}}
.charts{{display:grid;grid-template-columns:repeat(2,1fr);gap:12px}}
figure{{margin:0;background:{c['surface']};border:1px solid {c['tile-border']};border-radius:6px;
 padding:8px}}
figcaption{{font-size:13px;margin-bottom:4px}}
svg.chart{{width:100%;height:auto}}
svg.chart text{{font-size:10px;fill:{c['foreground']}}}
table{{border-collapse:collapse;width:100%;background:{c['surface']}}}
th,td{{border:1px solid {c['panel']};padding:4px 8px;text-align:left;vertical-align:top}}
td.num{{text-align:right;font-family:"DejaVu Sans Mono",monospace}}
pre{{white-space:pre-wrap;word-break:break-all;background:{c['surface']};padding:8px;
 border:1px solid {c['panel']};border-radius:6px;margin:4px 0 10px;font-size:12px}}
.warn{{color:{c['warning']};font-weight:bold}}
footer{{margin-top:24px;font-size:12px;opacity:.7}}
"""


def _tile(session: SessionResult, test: TestResult | None, unit: Unit,
          cmp: Comparison | None) -> str:
    if test is None:
        return '<div class="tile"><span class="fig none">-</span></div>'
    if not test.complete:
        why = _e(pgettext("cell", "error")) if test.error else "-"
        return f'<div class="tile" title="{_e(test.error or "")}"><span class="fig none">{why}</span></div>'
    value = test.figure(unit)
    width = meter_fraction(value, unit) * 100
    parts = [f'<div class="tile" data-test="{_e(test.key)}">',
             f'<div class="meter" style="width:{width:.1f}%"></div>',
             f'<span class="fig">{format_figure(value, unit)}</span>']
    delta = cmp.delta(test.key, unit) if cmp is not None else None
    if delta is not None:
        pct = _e(_("n/a")) if delta.pct is None else f"{delta.pct:+.1f}%"
        parts.append(f'<span class="delta {delta.verdict}">{_GLYPH[delta.verdict]} {pct}</span>')
    if test.cpu_limited:
        parts.append(f'<span class="cpu" title="{_e(cpu_limited_words(test, session))}">'
                     f'{_e(_("CPU-limited"))}</span>')
    if test.marks:  # a layer under the target explains the figure: its mark, why on hover
        from diskmark.report.stack_words import mark_phrase, marks_text

        why = " ".join(mark_phrase(m) for m in test.marks)
        parts.append(f'<span class="layer" title="{_e(why)}">{_e(marks_text(test))}</span>')
    parts.append("</div>")
    return "".join(parts)


def grid_html(session: SessionResult, unit: Unit, cmp: Comparison | None) -> str:
    """CrystalDiskMark's window: a row button per test, a tile per operation."""
    rows, columns, cells = _grid(session)
    profile = said_name(session.profile_name or session.settings.profile) or pgettext("button",
                                                                                     "All")
    out = [f'<section class="grid" style="grid-template-columns:120px repeat({len(columns)},1fr)">',
           f'<div class="head">{_e(profile)}</div>']
    out += [f'<div class="head">{_e(name)} ({unit.label})</div>' for name, _col, _mix in columns]
    for label in rows:
        name, _sep, qt = label.partition(" ")
        out.append(f'<div class="rowbtn"><span>{_e(name)}</span><span>{_e(qt)}</span></div>')
        out += [_tile(session, cells.get((label, col)), unit, cmp) for _name, col, _mix in columns]
    out.append("</section>")
    return "".join(out)


def _facts(session: SessionResult) -> list[tuple[str, str]]:
    st, sy = session.settings, session.system
    kind = disk_kind(sy.rotational, sy.virtual)
    device = ", ".join(x for x in (sy.model, kind, sy.interface) if x)
    na = _("n/a")
    filesystem = " ".join(x for x in (sy.fstype or na, f"({sy.mount_options})"
                                      if sy.mount_options else "") if x)
    if sy.mountpoint:
        # TRANSLATORS: {filesystem}: "ext4 (rw,relatime)"; {mountpoint}: where it is mounted
        filesystem = _("{filesystem} on {mountpoint}").format(filesystem=filesystem,
                                                              mountpoint=sy.mountpoint)
    mode = _(MODE_LABELS[st.mode]) if st.mode in MODE_LABELS else st.mode.value
    rows = [(_("Date"), _date(session.started)),
            (_("Profile"), f"{said_name(session.preset_name or st.preset)} / "
                           f"{said_name(session.profile_name or st.profile)}"),
            # TRANSLATORS: the test file's size × the passes, then the target's use
            (pgettext("fact", "Test"), _("{size} × {count} [{usage}]").format(
                size=format_size(st.size), count=st.count, usage=usage_text(session))),
            # TRANSLATORS: {mode}: "Read & Write"; {pattern}: "Random"; {io}: "Direct I/O (O_DIRECT), io_uring"
            (_("Mode"), _("{mode}, {pattern} data; {io}").format(
                mode=mode, pattern=st.data.label_in(), io=io_mode_text(session))),
            (_("Time"), _("measure {measure} s, interval {interval} s").format(
                measure=f"{session.measure or st.measure or 0:g}",
                interval=f"{session.interval:g}")),
            (_("Device"), f"{sy.device or na}" + (f" ({device})" if device else "")),
            (_("Drive"), drive_line(session.drive)),
            (_("Filesystem"), filesystem),
            (_("Host"), sy.hostname or na),
            ("OS", f"{sy.os or na}" + (f" [Linux {sy.kernel}]" if sy.kernel else "")),
            ("fio", session.fio_version or na),
            ("diskmark", session.diskmark_version or na)]
    if st.comment:
        rows.append((_("Comment"), st.comment))
    if session.status is not Status.COMPLETE:
        rows.append((_("Status"), _("{status}: {error}").format(
            status=_(STATUS_WORDS[session.status]), error=session.error or "")))
    return rows


def caption_parts(test: TestResult) -> tuple[str, str]:
    """A chart's caption as plain text: the test's name (shown bold) and its figures."""
    mix = f" R{test.mix_read}/W{100 - (test.mix_read or 0)}" if test.op is Op.MIX else ""
    name = f"{test.label} {column_name(test.op, None)}{mix}"
    text = f": {format_figure(test.best_mb_s, Unit.MB_S)} MB/s, " \
           f"{format_figure(test.best_iops, Unit.IOPS)} IOPS, " \
           f"{format_figure(test.best_lat_us, Unit.US)} {Unit.US.label}"
    if len(test.runs) > 1:
        n = len(test.runs)
        # TRANSLATORS: after a test's figures: how many passes and how far apart they were
        text += "; " + ngettext("{count} pass, R/Avg {spread}%", "{count} passes, R/Avg {spread}%",
                                n).format(count=n, spread=f"{test.spread().r_avg_pct:.1f}")
    return name, text


def _caption(test: TestResult) -> str:
    name, text = caption_parts(test)
    return f"<b>{_e(name)}</b>{_e(text)}"


def comparison_html(cmp: Comparison, name: str) -> str:
    # TRANSLATORS: the heading of the comparison: {name} is the reference's name
    out = [f"<h2>{_e(_('Against {name}').format(name=name))}</h2>"]
    diffs = cmp.settings_differences
    if diffs:
        text = _("Settings differ; this comparison may mislead: {differences}").format(
            differences="; ".join(diffs))
        out.append(f'<p class="warn">{_e(text)}</p>')
    heads = (pgettext("table header", "Test"), pgettext("table header", "Unit"),
             pgettext("table header", "Reference"), pgettext("table header", "This run"),
             pgettext("table header", "Change"), pgettext("table header", "Noise"),
             pgettext("table header", "Verdict"))
    out.append("<table><tr>" + "".join(f"<th>{_e(h)}</th>" for h in heads) + "</tr>")
    for t in cmp.tests:
        for unit in (u for u in GATE_UNITS if u in t.deltas):
            d = t.deltas[unit]
            pct = _e(_("n/a")) if d.pct is None else f"{d.pct:+.1f}%"
            out.append(f"<tr><td>{_e(t.title)}</td><td>{unit.label}</td>"
                       f'<td class="num">{format_figure(d.baseline, unit)}</td>'
                       f'<td class="num">{format_figure(d.current, unit)}</td>'
                       f'<td class="num">{pct}</td><td class="num">±{d.noise_pct:.1f}%</td>'
                       f'<td class="{d.verdict}">{_GLYPH[d.verdict]} '
                       f'{_e(verdict_word(d.verdict))}</td></tr>')
    out.append("</table>")
    for m in cmp.missing:
        # TRANSLATORS: a test measured on one side only, and why
        text = _("Not compared: {test} ({reason})").format(test=m.title, reason=m.reason)
        out.append(f"<p>{_e(text)}</p>")
    rule = _("Same = within noise: the two figures are no further apart (their range over their "
             "mean) than the passes are (their R/Avg %, else 3%); latency: lower is better, twice "
             "the latency counts as 50% worse.")
    out.append(f"<p>{_e(rule)}</p>")
    return "".join(out)


def render_html(session: SessionResult, colours: dict[str, str], unit: Unit = Unit.MB_S,
                reference: SessionResult | None = None, reference_name: str | None = None,
                title: str = "") -> str:
    """The whole page as text. With ``reference`` the tiles carry their change against it."""
    cmp = compare(session, reference, reference_name or "") if reference is not None else None
    where = session.system.target or session.settings.target
    heading = title or _("diskmark result")
    sub = " · ".join(x for x in (_date(session.started), where, session.system.device,
                                 session.system.fstype, session.system.hostname) if x)
    body = [f"<header><h1>{_e(heading)}</h1><div class=\"sub\">{_e(sub)}</div></header>",
            grid_html(session, unit, cmp)]
    if cmp is not None:
        body.append(comparison_html(cmp, reference_name or _("the reference")))
    charts = [(t, bandwidth_svg(t.runs, colours, f"{t.label} {op_word(t.op)}"))
              for t in session.tests if t.complete]
    charts = [(t, svg) for t, svg in charts if svg]
    if charts:
        body.append(f"<h2>{_e(_('Every second of every pass'))}</h2><section class=\"charts\">")
        body += [f"<figure><figcaption>{_caption(t)}</figcaption>{svg}</figure>" for t, svg in charts]
        body.append("</section>")
    body.append(f"<h2>{_e(_('Where it ran'))}</h2><table>")
    body += [f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in _facts(session)]
    body.append("</table>")
    if session.warnings:
        body += [f'<p class="warn">{_e(_("Note: {note}").format(note=said_kept(w)))}</p>'
                 for w in session.warnings]
    commands = [t for t in session.tests if t.fio_command]
    if commands:
        body.append(f"<h2>{_e(_('The fio command of every test'))}</h2>")
        for t in commands:
            body.append(f"<div>{_e(t.label)} {_e(op_word(t.op))}</div>"
                        f"<pre>{_e(shlex.join(t.fio_command))}</pre>")
    footer = _("Made by diskmark {version}. MB/s = 1,000,000 bytes/s; sizes are binary (MiB, "
               "GiB). Each figure is the best of the passes after a discarded warm-up (latency: "
               "the lowest).").format(version=__version__)
    body.append(f"<footer>{_e(footer)}</footer>")
    return (f"<!DOCTYPE html>\n<html lang=\"{_lang()}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; img-src data:\">"
            f"<title>{_e(heading)} — {_e(_date(session.started))}</title>"
            f"<style>{_style(colours)}</style></head><body><main>"
            + "".join(body) + "</main></body></html>\n")


def _lang() -> str:
    """The language in use as HTML names it: ``ja``, ``zh-CN`` (the made-up test language as
    a private-use tag)."""
    lang = language()
    return "x-pseudo" if lang == PSEUDO else lang.replace("_", "-")
