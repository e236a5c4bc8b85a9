"""The director's view: a plain-text table of a reconstructed deal, one line per trick."""

from __future__ import annotations

from vision.reconstruct import Inference, IssueKind, Report
from vision.record import Orientation

_ORIENT = {Orientation.WON: "won", Orientation.LOST: "lost", Orientation.UNKNOWN: "?"}


def _contract(report: Report) -> str:
    c = report.contract
    if c is None or report.trump.source != "given":
        return "contract not given"
    strain = "NT" if c.trump is None else c.trump.value
    if c.kind.value != "tricks":
        text = c.kind.value
    else:
        text = f"{c.level or ''}{strain}"
    if c.declarer is not None:
        text += f" by {c.declarer}"
    return f"contract {text}"


def _inference(label: str, inf: Inference) -> str:
    if inf.value is None:
        return f"{label} unknown"
    if inf.source == "given":
        return f"{label} {inf.value}"
    return f"{label} {inf.value} (inferred, confidence {inf.confidence:.2f})"


def report_to_text(report: Report) -> str:
    """One line per trick with each seat's card and orientation, leader and winner; conflicts
    are marked ``!`` and listed below the totals."""
    seats = report.seats
    flagged = {(i.seat, i.trick) for i in report.issues if i.trick is not None}
    conflict_tricks = {i.trick for i in report.issues
                       if i.kind is IssueKind.ORIENTATION_CONFLICT}
    head = [report.game]
    if report.dealer is not None:
        head.append(f"dealer {report.dealer}")
    head.append(_contract(report))
    head.append(_inference("trump", report.trump))
    head.append(_inference("first lead", report.leader))
    lines = [" | ".join(head)]
    lines.append("trick lead " + "".join(f"{s.name:<11}" for s in seats) + "won by")
    for t in report.tricks:
        cells = []
        for s in seats:
            c = t.cards.get(s)
            o = t.orientations.get(s, Orientation.UNKNOWN)
            mark = "!" if (s, t.number) in flagged or (None, t.number) in flagged else " "
            cells.append(f"{str(c) if c is not None else '--':<3} {_ORIENT[o]:<5}{mark} ")
        lead = t.leader.name if t.leader is not None else "?"
        if t.side is None:
            won = "? (" + " or ".join(t.candidates) + ")" if t.candidates else "?"
        elif t.winner is not None:
            won = t.winner.name + (f" {t.side}" if t.side != t.winner.name else "")
        else:
            won = t.side
        note = "  conflict" if t.number in conflict_tricks else ""
        lines.append(f"{t.number:>5} {lead:<4} " + "".join(cells) + won + note)
    total = ", ".join(f"{k} {v}" for k, v in report.result.items())
    determined = len(report.tricks) - len(report.undetermined)
    basis = "the won cards of the rows read whole; " if report.result_basis == "rows" else ""
    lines.append(f"Result: {total} ({basis}{determined} of {len(report.tricks)} tricks "
                 "determined" + (" one by one" if basis else "")
                 + ("" if report.complete else ", deal in progress") + ")")
    if report.undetermined:
        lines.append("Undetermined: " + " ".join(map(str, report.undetermined)))
    if report.issues:
        lines.append(f"Issues ({len(report.issues)}):")
        for i in report.issues:
            where = f"trick {i.trick}" if i.trick is not None else "row"
            lines.append(f"  {where:<8} {i.kind.value:<21} {i.message}")
    else:
        lines.append("Issues: none")
    for n in report.notes:
        lines.append(f"Note: {n}")
    return "\n".join(lines) + "\n"


__all__ = ["report_to_text"]
