#!/usr/bin/env python3
"""Draws a trace written by ecs_sched.h as an SVG timeline, for pages without a trace viewer.

    python3 tools/trace_svg.py IN.json OUT.svg [--width PIXELS]

IN.json is a Chrome trace-event file as the library writes it:

    {"displayTimeUnit": "ns",
     "otherData": {"library": "ecs_sched.h", "events_recorded": 123, "events_dropped": 0, ...},
     "traceEvents": [
       {"name": "thread_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "calling thread"}},
       {"name": "move", "cat": "system", "ph": "X", "ts": 12.345, "dur": 1.203, "pid": 1,
        "tid": 0, "args": {"schedule": "Update"}},
       {"name": "held: move", "cat": "held", "ph": "i", "s": "t", "ts": 15.0, "pid": 1,
        "tid": 0, "args": {"schedule": "Update"}},
       ...]}

ts and dur are in microseconds. "X" events are spans, "i" events instants, and "M" events named
"thread_name" name a thread; events of other phases are left out. Each thread (tid) gets a band,
its spans stacked one row per nesting depth (a frame above its schedules, a schedule above its
systems). Spans take the colour of their args.schedule, assigned in order of first appearance in
time; frames and spans without a schedule are grey, sync points dark red. Sync points and
instants (held, skipped, failure...) get a marker in the strip at the top of their band, run
conditions that were false a marker on their span. Hovering over a span or a marker shows its
details.

The output depends on the input only. Exit status 0 when the SVG is written, 1 when the input
cannot be read or is not a trace (the reason is printed on one line), 2 on bad arguments.
"""
import argparse
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field

DEFAULT_WIDTH = 1200
MIN_WIDTH = 400

FONT_FAMILY = "Helvetica, Arial, sans-serif"
FONT_SIZE = 11
CHAR_WIDTH = 6.5
LABEL_FONT_SIZE = 12
LABEL_CHAR_WIDTH = 7.5
TITLE_FONT_SIZE = 14

MARGIN = 10
RIGHT_MARGIN = 24
LABEL_MIN_WIDTH = 90
MARKER_STRIP = 16
ROW_HEIGHT = 16
ROW_GAP = 2
BAND_PADDING = 6
AXIS_HEIGHT = 34
LEGEND_LINE = 20

NESTING_TOLERANCE_US = 0.0005

PALETTE = (
    "#4e79a7", "#f28e2b", "#59a14f", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
    "#a0cbe8", "#ffbe7d", "#8cd17d", "#86bcb6", "#f1ce63", "#d4a6c8", "#fabfd2", "#d7b5a6",
)
NEUTRAL_GREY = "#c7c7c7"
SYNC_RED = "#8b1a1a"
SCHEDULE_SPAN_OPACITY = "0.6"
BAND_BACKGROUNDS = ("#f7f7f7", "#ffffff")
GRID_COLOUR = "#e2e2e2"
TEXT_DARK = "#222222"
WARNING_RED = "#c00000"


@dataclass(frozen=True)
class MarkerStyle:
    shape: str
    colour: str
    meaning: str


MARKER_STYLES = {
    "sync": MarkerStyle("triangle", SYNC_RED, "sync point"),
    "condition": MarkerStyle("diamond", "#e07b00", "condition false"),
    "held": MarkerStyle("square", "#7b3fb5", "held"),
    "skipped": MarkerStyle("circle", "#6b6b6b", "skipped"),
    "failure": MarkerStyle("cross", "#d62728", "failure"),
    "disabled": MarkerStyle("tick", "#3b6fb6", "disabled"),
    "instant": MarkerStyle("tick", "#555555", "other instant"),
}
ALWAYS_LISTED_MARKERS = ("sync", "condition", "held", "skipped", "failure")
MARKERS_LISTED_WHEN_SEEN = ("disabled", "instant")


class TraceError(Exception):
    """The input is not a trace this script can draw; the message says why."""


@dataclass
class Event:
    index: int
    tid: object
    name: str
    category: str
    ts: float
    dur: float
    args: dict
    is_span: bool
    depth: int = 0

    @property
    def end(self):
        return self.ts + self.dur

    @property
    def schedule(self):
        value = self.args.get("schedule")
        if value is None or value == "":
            return None
        return value if isinstance(value, str) else json.dumps(value)


@dataclass
class Timeline:
    events: list = field(default_factory=list)
    thread_names: dict = field(default_factory=dict)
    dropped: int = 0

    @property
    def origin(self):
        return min(e.ts for e in self.events)

    @property
    def total(self):
        return max(e.end for e in self.events) - self.origin


# ----------------------------------------------------------------------------- reading


def load_trace(path):
    """The decoded JSON object of the trace file at path; TraceError when it is not one."""
    try:
        with open(path, "r", encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise TraceError(f"cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise TraceError("not UTF-8 text") from None
    try:
        trace = json.loads(text)
    except json.JSONDecodeError as e:
        raise TraceError(f"not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    if not isinstance(trace, dict):
        raise TraceError('no "traceEvents" list (the top level is not a JSON object)')
    if not isinstance(trace.get("traceEvents"), list):
        raise TraceError('no "traceEvents" list')
    return trace


def finite_number(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def thread_id(raw):
    """The tid of raw: an integer as in the file, anything else as text."""
    tid = raw.get("tid", 0)
    return tid if isinstance(tid, int) and not isinstance(tid, bool) else str(tid)


def read_event(index, raw):
    """The span or instant raw describes, or None when it is neither or lacks a time."""
    phase = raw.get("ph")
    if phase not in ("X", "i", "I"):
        return None
    ts = finite_number(raw.get("ts"))
    if ts is None:
        return None
    is_span = phase == "X"
    dur = max(finite_number(raw.get("dur")) or 0.0, 0.0) if is_span else 0.0
    args = raw.get("args")
    return Event(
        index=index,
        tid=thread_id(raw),
        name=str(raw.get("name", "")),
        category=str(raw.get("cat", "")),
        ts=ts,
        dur=dur,
        args=args if isinstance(args, dict) else {},
        is_span=is_span,
    )


def read_thread_name(raw):
    """(tid, name) when raw is a thread_name metadata event, else None."""
    if raw.get("ph") != "M" or raw.get("name") != "thread_name":
        return None
    args = raw.get("args")
    name = args.get("name") if isinstance(args, dict) else None
    if not isinstance(name, str) or not name:
        return None
    return thread_id(raw), name


def events_dropped(trace):
    other = trace.get("otherData")
    count = finite_number(other.get("events_dropped")) if isinstance(other, dict) else None
    return int(count) if count and count > 0 else 0


def read_timeline(trace):
    timeline = Timeline(dropped=events_dropped(trace))
    for index, raw in enumerate(trace["traceEvents"]):
        if not isinstance(raw, dict):
            continue
        thread = read_thread_name(raw)
        if thread is not None:
            timeline.thread_names[thread[0]] = thread[1]
            continue
        event = read_event(index, raw)
        if event is not None:
            timeline.events.append(event)
    return timeline


# ----------------------------------------------------------------------------- arranging


def thread_sort_key(tid):
    return (0, tid, "") if isinstance(tid, int) else (1, 0, tid)


def threads_in_order(timeline):
    tids = {e.tid for e in timeline.events} | set(timeline.thread_names)
    return sorted(tids, key=thread_sort_key)


def thread_label(timeline, tid):
    return timeline.thread_names.get(tid, f"thread {tid}")


def assign_depths(spans):
    """Sets each span's depth to the number of spans on its thread that contain it."""
    open_spans = []
    for span in sorted(spans, key=lambda s: (s.ts, -s.dur, s.index)):
        while open_spans and open_spans[-1].end <= span.ts + NESTING_TOLERANCE_US:
            open_spans.pop()
        span.depth = len(open_spans)
        open_spans.append(span)


def rows_per_thread(timeline):
    """{tid: number of span rows}, after setting the depth of every span."""
    spans_by_thread = {}
    for event in timeline.events:
        if event.is_span:
            spans_by_thread.setdefault(event.tid, []).append(event)
    rows = {}
    for tid, spans in spans_by_thread.items():
        assign_depths(spans)
        rows[tid] = 1 + max(s.depth for s in spans)
    return rows


def schedule_colours(timeline):
    """{schedule name: colour}, in order of first appearance in time."""
    colours = {}
    for event in sorted(timeline.events, key=lambda e: (e.ts, e.index)):
        name = event.schedule
        if name is not None and name not in colours:
            colours[name] = PALETTE[len(colours) % len(PALETTE)]
    return colours


def span_fill(span, colours):
    if span.category == "sync":
        return SYNC_RED
    if span.category == "frame" or span.schedule is None:
        return NEUTRAL_GREY
    return colours[span.schedule]


def is_false(value):
    return value in (False, 0, "false")


def marker_kind(event):
    """The key of the marker event gets in MARKER_STYLES, or None when it gets none."""
    if event.category == "sync" and event.is_span:
        return "sync"
    if event.category == "condition" and is_false(event.args.get("result")):
        return "condition"
    if event.category in ("held", "skipped", "failure", "disabled"):
        return event.category
    if not event.is_span:
        return "instant"
    return None


# ----------------------------------------------------------------------------- time axis


def nice_tick_step(total):
    """The smallest 1, 2 or 5 times a power of ten that cuts total into at most 10 ticks."""
    exponent = math.floor(math.log10(total / 10))
    while True:
        for mantissa in (1, 2, 5):
            step = mantissa * 10.0 ** exponent
            if math.floor(total / step + 1e-9) + 1 <= 10:
                return step
        exponent += 1


def time_unit(total):
    """(divisor from microseconds, unit name) that suits a timeline of total microseconds."""
    if total >= 1e6:
        return 1e6, "s"
    if total >= 1e3:
        return 1e3, "ms"
    return 1.0, "µs"


def tick_label(value, step, total):
    divisor, unit = time_unit(total)
    decimals = max(0, math.ceil(-math.log10(step / divisor) - 1e-9))
    return f"{value / divisor:.{decimals}f} {unit}"


def format_duration(us):
    divisor, unit = time_unit(us)
    return f"{us / divisor:.3f} {unit}"


# ----------------------------------------------------------------------------- SVG text


INVALID_XML_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def escape(text):
    text = INVALID_XML_CHARS.sub("\ufffd", str(text))
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def num(value):
    """value with at most two decimals, without trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def text_width(text, char_width=CHAR_WIDTH):
    return len(text) * char_width


def fits_text(text, width):
    return text_width(text) + 4 <= width


def truncated(text, width, char_width):
    if text_width(text, char_width) <= width:
        return text
    keep = max(0, int(width / char_width) - 1)
    return text[:keep] + "…"


def readable_text_colour(fill):
    red, green, blue = (int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5))
    luminance = 0.299 * red + 0.587 * green + 0.114 * blue
    return "#ffffff" if luminance < 0.55 else TEXT_DARK


def svg_text(x, y, content, size=FONT_SIZE, anchor="start", colour=TEXT_DARK, bold=False):
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{colour}"{weight}>{escape(content)}</text>')


def format_arg(value):
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def tooltip(event, origin):
    lines = [event.name, f"category: {event.category or '(none)'}"]
    if event.schedule is not None:
        lines.append(f"schedule: {event.schedule}")
    lines.append(f"start: {event.ts - origin:.3f} µs")
    if event.is_span:
        lines.append(f"duration: {event.dur:.3f} µs")
    lines += [f"{key}: {format_arg(value)}" for key, value in event.args.items()
              if key != "schedule"]
    return "<title>" + escape("\n".join(lines)) + "</title>"


def marker_shape(kind, x, y, size=5):
    """The SVG element of a marker of kind centred on (x, y)."""
    style = MARKER_STYLES[kind]
    s = size
    if style.shape == "triangle":
        points = [(x - s, y - s), (x + s, y - s), (x, y + s)]
    elif style.shape == "diamond":
        points = [(x, y - s), (x + s, y), (x, y + s), (x - s, y)]
    elif style.shape == "square":
        h = s * 0.8
        return (f'<rect x="{num(x - h)}" y="{num(y - h)}" width="{num(2 * h)}" '
                f'height="{num(2 * h)}" fill="{style.colour}"/>')
    elif style.shape == "circle":
        return f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(s * 0.8)}" fill="{style.colour}"/>'
    elif style.shape == "cross":
        return (f'<path d="M{num(x - s)},{num(y - s)}L{num(x + s)},{num(y + s)}'
                f'M{num(x + s)},{num(y - s)}L{num(x - s)},{num(y + s)}" '
                f'stroke="{style.colour}" stroke-width="2"/>')
    else:
        return (f'<line x1="{num(x)}" y1="{num(y - s)}" x2="{num(x)}" y2="{num(y + s)}" '
                f'stroke="{style.colour}" stroke-width="2"/>')
    coords = " ".join(f"{num(px)},{num(py)}" for px, py in points)
    return f'<polygon points="{coords}" fill="{style.colour}"/>'


# ----------------------------------------------------------------------------- drawing


@dataclass
class Layout:
    width: int
    label_width: float
    origin: float
    span_us: float

    @property
    def plot_left(self):
        return MARGIN + self.label_width

    @property
    def plot_width(self):
        return self.width - self.plot_left - RIGHT_MARGIN

    def x(self, ts):
        return self.plot_left + (ts - self.origin) / self.span_us * self.plot_width


def band_height(rows):
    return MARKER_STRIP + rows * (ROW_HEIGHT + ROW_GAP) + BAND_PADDING


def label_column_width(labels, width):
    widest = max((text_width(label, LABEL_CHAR_WIDTH) for label in labels), default=0)
    return min(max(widest + 16, LABEL_MIN_WIDTH), width * 0.3)


def count_of(count, noun):
    return f"{count} {noun}" + ("" if count == 1 else "s")


def title_lines(input_name, timeline):
    """[(text, colour)] of the lines above the timeline."""
    events = count_of(len(timeline.events), "event")
    if timeline.events:
        summary = f"{input_name} — {format_duration(timeline.total)} total, {events}"
    else:
        summary = f"{input_name} — {events}"
    lines = [(summary, TEXT_DARK)]
    if timeline.dropped:
        dropped = count_of(timeline.dropped, "event")
        lines.append((f"⚠ {dropped} dropped (buffer full)", WARNING_RED))
    return lines


def draw_title(lines):
    parts, y = [], MARGIN
    for text, colour in lines:
        y += TITLE_FONT_SIZE + 4
        parts.append(svg_text(MARGIN, y, text, TITLE_FONT_SIZE, colour=colour, bold=True))
    return parts, y + 10


def row_top(band_top, depth):
    return band_top + MARKER_STRIP + depth * (ROW_HEIGHT + ROW_GAP)


def draw_span(span, layout, top, colours):
    x = layout.x(span.ts)
    width = max(layout.x(span.end) - x, 0.5)
    y = row_top(top, span.depth)
    fill = span_fill(span, colours)
    opacity = ' fill-opacity="' + SCHEDULE_SPAN_OPACITY + '"' if span.category == "schedule" else ""
    outline = ' stroke="#ffffff" stroke-width="0.5"' if width > 2 else ""
    parts = ["<g>", tooltip(span, layout.origin),
             f'<rect x="{num(x)}" y="{num(y)}" width="{num(width)}" height="{ROW_HEIGHT}" '
             f'fill="{fill}"{opacity}{outline}/>']
    if span.name and fits_text(span.name, width):
        colour = TEXT_DARK if opacity else readable_text_colour(fill)
        parts.append(svg_text(x + 2, y + ROW_HEIGHT - 4, span.name, colour=colour))
    parts.append("</g>")
    return "".join(parts)


def draw_marker(event, kind, layout, top):
    """The marker of event: on its span for a condition, else in the strip atop the band."""
    centre = event.ts + event.dur / 2 if event.is_span else event.ts
    if kind == "condition" and event.is_span:
        y = row_top(top, event.depth) + ROW_HEIGHT / 2
    else:
        y = top + MARKER_STRIP / 2
    shape = marker_shape(kind, layout.x(centre), y)
    return "<g>" + tooltip(event, layout.origin) + shape + "</g>"


def draw_band(label, events, rows, layout, top, shade, colours):
    """(background, contents, height) of the band of one thread whose top is at top."""
    height = band_height(rows)
    background = (f'<rect x="0" y="{num(top)}" width="{layout.width}" height="{num(height)}" '
                  f'fill="{shade}"/>')
    contents = [svg_text(MARGIN, top + MARKER_STRIP + ROW_HEIGHT - 4,
                         truncated(label, layout.label_width - 12, LABEL_CHAR_WIDTH),
                         LABEL_FONT_SIZE, bold=True)]
    spans = [e for e in events if e.is_span]
    for span in sorted(spans, key=lambda s: (s.depth, s.ts, s.index)):
        contents.append(draw_span(span, layout, top, colours))
    for event in sorted(events, key=lambda e: (e.ts, e.index)):
        kind = marker_kind(event)
        if kind is not None:
            contents.append(draw_marker(event, kind, layout, top))
    return background, contents, height


def draw_grid_and_axis(layout, top, bottom):
    step = nice_tick_step(layout.span_us)
    count = math.floor(layout.span_us / step + 1e-9) + 1
    labels = [tick_label(i * step, step, layout.span_us) for i in range(count)]
    spacing = layout.plot_width * step / layout.span_us
    label_every = 1 if max(map(text_width, labels)) + 8 <= spacing else 2
    axis_y = bottom + 4
    parts = [f'<line x1="{num(layout.plot_left)}" y1="{num(axis_y)}" '
             f'x2="{num(layout.plot_left + layout.plot_width)}" y2="{num(axis_y)}" '
             f'stroke="{TEXT_DARK}"/>']
    for i in range(count):
        x = layout.x(layout.origin + i * step)
        parts.append(f'<line x1="{num(x)}" y1="{num(top)}" x2="{num(x)}" y2="{num(bottom)}" '
                     f'stroke="{GRID_COLOUR}"/>')
        parts.append(f'<line x1="{num(x)}" y1="{num(axis_y)}" x2="{num(x)}" '
                     f'y2="{num(axis_y + 5)}" stroke="{TEXT_DARK}"/>')
        if i % label_every == 0:
            parts.append(svg_text(x, axis_y + 18, labels[i], anchor="middle"))
    return parts, axis_y + AXIS_HEIGHT


def legend_entries(timeline, colours):
    """[(draw function of (x, y), text)] of the legend, schedules first, then markers."""
    def swatch(fill):
        return lambda x, y: (f'<rect x="{num(x)}" y="{num(y - 6)}" width="14" height="12" '
                             f'fill="{fill}"/>')

    def marker(kind):
        return lambda x, y: marker_shape(kind, x + 7, y)

    entries = [(swatch(colour), name) for name, colour in colours.items()]
    entries.append((swatch(NEUTRAL_GREY), "frame / no schedule"))
    seen = {marker_kind(e) for e in timeline.events}
    listed = list(ALWAYS_LISTED_MARKERS) + [k for k in MARKERS_LISTED_WHEN_SEEN if k in seen]
    entries += [(marker(kind), MARKER_STYLES[kind].meaning) for kind in listed]
    return entries


def draw_legend(entries, width, top):
    parts, x, y = [], MARGIN, top + LEGEND_LINE / 2
    for draw, text in entries:
        entry_width = 14 + 6 + text_width(text) + 18
        if x > MARGIN and x + entry_width > width - MARGIN:
            x, y = MARGIN, y + LEGEND_LINE
        parts.append(draw(x, y))
        parts.append(svg_text(x + 20, y + 4, text))
        x += entry_width
    return parts, y + LEGEND_LINE / 2 + MARGIN


def svg_document(width, height, body):
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{num(height)}" '
        f'viewBox="0 0 {width} {num(height)}" font-family="{FONT_FAMILY}">',
        f'<rect x="0" y="0" width="{width}" height="{num(height)}" fill="#ffffff"/>',
        *body,
        "</svg>",
        "",
    ])


def render_empty(input_name, timeline, width):
    body, y = draw_title(title_lines(input_name, timeline))
    body.append(svg_text(width / 2, y + 20, "no events", 13, anchor="middle", colour="#777777"))
    return svg_document(width, y + 40, body)


def render(input_name, timeline, width):
    """The SVG document of timeline, drawn width pixels wide."""
    if not timeline.events:
        return render_empty(input_name, timeline, width)
    tids = threads_in_order(timeline)
    rows = rows_per_thread(timeline)
    colours = schedule_colours(timeline)
    labels = {tid: thread_label(timeline, tid) for tid in tids}
    layout = Layout(width, label_column_width(labels.values(), width),
                    timeline.origin, timeline.total if timeline.total > 0 else 1.0)

    title, bands_top = draw_title(title_lines(input_name, timeline))
    events_by_thread = {tid: [] for tid in tids}
    for event in timeline.events:
        events_by_thread[event.tid].append(event)

    backgrounds, bands, y = [], [], bands_top
    for i, tid in enumerate(tids):
        background, contents, height = draw_band(
            labels[tid], events_by_thread[tid], rows.get(tid, 1), layout, y,
            BAND_BACKGROUNDS[i % 2], colours)
        backgrounds.append(background)
        bands += contents
        y += height

    grid, legend_top = draw_grid_and_axis(layout, bands_top, y)
    legend, height = draw_legend(legend_entries(timeline, colours), width, legend_top)
    return svg_document(width, height, title + backgrounds + grid + bands + legend)


# ----------------------------------------------------------------------------- command line


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        description="Draws a Chrome trace-event JSON file written by ecs_sched.h as an SVG "
                    "timeline.")
    parser.add_argument("input", metavar="IN.json", help="the trace file")
    parser.add_argument("output", metavar="OUT.svg", help="the SVG file to write")
    parser.add_argument("--width", type=int, default=DEFAULT_WIDTH, metavar="PIXELS",
                        help=f"width of the picture (default {DEFAULT_WIDTH})")
    args = parser.parse_args(argv)
    if args.width < MIN_WIDTH:
        parser.error(f"--width must be at least {MIN_WIDTH}")
    return args


def main(argv=None):
    args = parse_arguments(argv)
    program = os.path.basename(sys.argv[0]) or "trace_svg.py"
    try:
        timeline = read_timeline(load_trace(args.input))
    except TraceError as e:
        print(f"{program}: {args.input}: {e}", file=sys.stderr)
        return 1
    svg = render(os.path.basename(args.input), timeline, args.width)
    try:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(svg)
    except OSError as e:
        print(f"{program}: {args.output}: cannot write: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
