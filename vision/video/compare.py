"""Scoring a tracker's events against a video's ground-truth events.

The figures of the issue: tricks found (missed, invented), tricks with every card and the
winner right, alerts raised (and how long after the true moment), and the delay of each
confirmed event. Used by the tests, ``trickvision video --truth`` and the benchmark.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vision.video.events import Alert, AlertWithdrawn, CardsTurned, Event, TrickComplete


@dataclass
class Score:
    tricks_true: int = 0
    tricks_found: int = 0
    missed: list[int] = field(default_factory=list)
    invented: list[int] = field(default_factory=list)
    wrong: list[int] = field(default_factory=list)  # found, but a card or the winner differs
    alerts_true: int = 0
    alerts_found: int = 0
    alerts_missed: list[str] = field(default_factory=list)
    alerts_extra: list[str] = field(default_factory=list)
    alerts_withdrawn: list[str] = field(default_factory=list)  # raised, then withdrawn
    alert_delays: list[float] = field(default_factory=list)
    turn_delays: list[float] = field(default_factory=list)  # found CardsTurned t - true t

    @property
    def tricks_right(self) -> int:
        return self.tricks_true - len(self.missed) - len(self.wrong)

    @property
    def perfect(self) -> bool:
        return not (self.missed or self.invented or self.wrong or self.alerts_missed
                    or self.alerts_extra)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tricks_true": self.tricks_true, "tricks_found": self.tricks_found,
            "tricks_right": self.tricks_right, "missed": self.missed, "invented": self.invented,
            "wrong": self.wrong, "alerts_true": self.alerts_true,
            "alerts_found": self.alerts_found, "alerts_missed": self.alerts_missed,
            "alerts_extra": self.alerts_extra, "alerts_withdrawn": self.alerts_withdrawn,
            "max_alert_delay_s": round(max(self.alert_delays, default=0.0), 3),
            "max_turn_delay_s": round(max(self.turn_delays, default=0.0), 3),
        }

    def summary(self) -> str:
        return (f"tricks {self.tricks_right}/{self.tricks_true} right, missed {self.missed}, "
                f"invented {self.invented}, wrong {self.wrong}; alerts {self.alerts_found}/"
                f"{self.alerts_true} (missed {self.alerts_missed}, extra {self.alerts_extra}"
                + (f", withdrawn {self.alerts_withdrawn}" if self.alerts_withdrawn else "") + ")")


def _alert_key(a: Alert | AlertWithdrawn) -> str:
    return f"{a.alert}:{a.seat}:{a.trick}"


def score_events(truth: list[Event], found: list[Event], *, deal: int | None = None,
                 confirmed: list[float] | None = None) -> Score:
    """Compare found events with the truth (one deal: ``deal`` or the found events' first).

    ``confirmed`` (parallel to ``found``) gives the time each event was raised; the alert
    delays are then measured from the true moment to the raising, as a player experiences
    them, instead of between the two events' own times.
    """
    if deal is None:
        deal = min((e.deal for e in found), default=1)
    raised = {id(e): (confirmed[i] if confirmed is not None else e.t)
              for i, e in enumerate(found)}
    found = [e for e in found if e.deal == deal]
    s = Score()
    t_tricks = {e.number: e for e in truth if isinstance(e, TrickComplete)}
    f_tricks = {e.number: e for e in found if isinstance(e, TrickComplete)}
    s.tricks_true, s.tricks_found = len(t_tricks), len(f_tricks)
    s.missed = sorted(set(t_tricks) - set(f_tricks))
    s.invented = sorted(set(f_tricks) - set(t_tricks))
    for k in sorted(set(t_tricks) & set(f_tricks)):
        a, b = t_tricks[k], f_tricks[k]
        if dict(a.cards) != dict(b.cards) or a.winner != b.winner:
            s.wrong.append(k)
    t_turn = {e.number: e for e in truth if isinstance(e, CardsTurned)}
    for e in found:
        if isinstance(e, CardsTurned) and e.number in t_turn:
            s.turn_delays.append(raised[id(e)] - t_turn[e.number].t)
    t_alerts = {_alert_key(e): e for e in truth if isinstance(e, Alert)}
    # the alerts standing at the end: an alert withdrawn later does not count (it is listed)
    f_alerts: dict[str, Alert] = {}
    for e in found:
        if isinstance(e, Alert):
            f_alerts[_alert_key(e)] = e
        elif isinstance(e, AlertWithdrawn) and f_alerts.pop(_alert_key(e), None) is not None:
            s.alerts_withdrawn.append(_alert_key(e))
    s.alerts_true, s.alerts_found = len(t_alerts), len(f_alerts)
    s.alerts_missed = sorted(set(t_alerts) - set(f_alerts))
    s.alerts_extra = sorted(set(f_alerts) - set(t_alerts))
    for key in set(t_alerts) & set(f_alerts):
        s.alert_delays.append(raised[id(f_alerts[key])] - t_alerts[key].t)
    return s


def evaluate_script(script: Any, *, gate: bool = True, mode: str = "live",
                    noise: Any = None) -> tuple[Score, Score]:
    """Render a :class:`vision.synth.video.VideoScript`, track it with the truth analyser
    (gated like ``watch``, or like ``video`` with ``mode="offline"``) and score it - the
    held-out accuracy figure.

    Returns two scores of the same run: delays measured from the physical moment (the card
    touches the table, still under the hand) and from the moment the evidence first shows
    (the card at least half visible, a row card at least a fifth) - a camera cannot report
    what a hand still covers. ``noise`` (a :class:`vision.video.pipeline.ReadingNoise`) adds
    detector-like errors to the readings.
    """
    from vision.video.gate import CONFIRM_S, SETTINGS, ChangeGate
    from vision.video.pipeline import TruthAnalyzer, VideoPipeline
    from vision.video.sources import Frame
    from vision.video.tracker import TableTracker

    confirm_s = CONFIRM_S[mode]
    settings = SETTINGS[mode]
    truth: dict[int, Any] = {}
    analyzer = TruthAnalyzer(truth, script.fps, noise=noise)
    d = script.deal
    tracker = TableTracker(script.game, script.fps, dealer=d.dealer, contract=d.contract,
                           seats=d.seats, confirm_s=confirm_s)
    pipeline = VideoPipeline(analyzer, tracker, gate=ChangeGate(**settings) if gate else None)
    found: list[Event] = []
    when: list[float] = []
    shown: dict[tuple[Any, ...], float] = {}
    for vf in script.frames():
        truth.clear()
        truth[vf.index] = vf.cards
        for c in vf.cards:
            if c["seat"] is None:
                continue
            if c["in_current_trick"] and c["visible_fraction"] >= analyzer.min_face_visible:
                shown.setdefault(("up", c["seat"], c["card"]), vf.t)
            elif c["row_position"] is not None and c["visible_fraction"] >= analyzer.min_visible:
                shown.setdefault(("row", c["seat"], c["row_position"]), vf.t)
        for e in pipeline.process(Frame(image=vf.image, t=vf.t, index=vf.index, pos=vf.t)):
            found.append(e)
            when.append(vf.t)
    physical = score_events(script.events, found, confirmed=when)
    seen = score_events(_as_seen(script.events, shown), found, confirmed=when)
    return physical, seen


def _as_seen(events: list[Event], shown: dict[tuple[Any, ...], float]) -> list[Event]:
    """The true events moved to the moment their evidence first became visible."""
    from dataclasses import replace

    from vision.video.events import CardLaid

    laid_at = {(e.seat, e.t): e for e in events if isinstance(e, CardLaid)}
    out: list[Event] = []
    for e in events:
        t = e.t
        if isinstance(e, CardLaid) and e.card is not None:
            t = shown.get(("up", e.seat.name, str(e.card)), t)
        elif isinstance(e, CardsTurned):
            t = max(shown.get(("row", s.name, e.number), t) for s, _ in e.orientations)
        elif isinstance(e, Alert) and e.seat is not None:
            if e.alert == "wrong_orientation":
                t = shown.get(("row", e.seat.name, e.trick), t)
            elif e.alert == "revoke" and (e.seat, e.t) in laid_at:
                proof = laid_at[(e.seat, e.t)]
                t = shown.get(("up", e.seat.name, str(proof.card)), t)
        out.append(replace(e, t=max(t, e.t)))
    return out
