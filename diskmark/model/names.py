"""What a test is called: CrystalDiskMark's names (``SEQ1M Q8T1``) with the operation
(``Read``, ``Write``, ``Mix R70/W30``). CrystalDiskMark prints them the same in every
language, so the engine's messages, the reports and the app all use these."""

from __future__ import annotations

from diskmark.model.numerals import digits_only
from diskmark.model.settings import Op


def mix_label(read: int | None, *, percent: bool = False) -> str:
    """``R70/W30`` (``R70%/W30%``), or ``none`` without a mix."""
    if read is None:
        return "none"
    sign = "%" if percent else ""
    return f"R{read}{sign}/W{100 - read}{sign}"


def test_key(label: str, op: Op, mix_read: int | None = None) -> str:
    """A test's identity across sessions, ``SEQ1M Q8T1/read`` (``…/mix70``): comparisons
    match tests by it and the history's indexed columns hold it, so it is made here only."""
    suffix = f"{op.value}{mix_read}" if op is Op.MIX else op.value
    return f"{label}/{suffix}"


def test_title(label: str, op: Op, mix_read: int | None = None) -> str:
    """The test in full: 'SEQ1M Q8T1 Read', 'RND4K Q1T1 Mix R70/W30' (CDM's 'Sequential
    Read' does not say which of four rows runs)."""
    if op is Op.MIX:
        return f"{label} Mix {mix_label(mix_read or 0)}"
    return f"{label} {op.value.capitalize()}"


def from_test_key(key: str) -> tuple[str, Op, int | None] | None:
    """What :func:`test_key` made a key of (label, operation, mix share), or None for a key
    it did not make."""
    label, _slash, suffix = key.rpartition("/")
    for op in Op:
        if suffix == op.value and op is not Op.MIX:
            return label, op, None
    share = suffix.removeprefix(Op.MIX.value)
    if share != suffix and digits_only(share):
        return label, Op.MIX, int(share)
    return None


test_title.__test__ = False  # type: ignore[attr-defined]  # a function, not a pytest test
test_key.__test__ = False  # type: ignore[attr-defined]  # a function, not a pytest test
