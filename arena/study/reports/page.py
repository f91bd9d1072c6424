# ruff: noqa: E501
# (the templates below hold markdown table rows and HTML lines that read best unbroken)
"""The pages of `arena report`: jinja2 templates for markdown and for one self-contained HTML file.

Every value reaches a template as data: names pass through :func:`arena.labels.printable` (control characters
escaped), then the HTML template autoescapes them and the markdown template escapes markdown punctuation
(:func:`arena.study.reports.text.md_text`), so a scenario called ``<img src=x onerror=...>`` is shown, never run. The
HTML page embeds its plots as ``data:`` URIs and lays itself out for a laptop screen and for a phone: at 1366 px every
table fits the page (headers and notes wrap), and under 1000 px each table row becomes a card of labelled lines, so no
column is ever off the edge.

Why a module of its own: the templates are the page's layout, kept apart from the numbers
(:mod:`arena.study.reports.report`) so that escaping is decided in one place.
"""

from __future__ import annotations

from typing import Any

from arena.labels import printable

HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>d20 Arena report</title>
<style>
  :root { color-scheme: light; }
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.45; color: #1d2330;
         max-width: 1180px; margin: 0 auto; padding: 0 1.2rem 3rem; }
  h1 { font-size: 1.6rem; margin-bottom: .2rem; }
  h2 { font-size: 1.3rem; margin-top: 2.4rem; border-bottom: 2px solid #d8dde6; padding-bottom: .2rem; }
  h3 { font-size: 1.05rem; margin-top: 1.6rem; }
  h2, h3, code { overflow-wrap: anywhere; }
  .run { color: #555; font-size: .9rem; }
  dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .6rem 0;
             background: #f4f6fa; padding: .6rem .9rem; border-radius: 6px; }
  dl.facts dt { font-weight: 600; }
  dl.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
  .table-box { overflow-x: auto; max-width: 100%; }
  table { border-collapse: collapse; font-size: .85rem; margin: .4rem 0 1rem; width: 100%; }
  th, td { border-bottom: 1px solid #e1e5ec; padding: .25rem .45rem; text-align: right; vertical-align: top; }
  th { background: #eef1f6; font-weight: 600; position: sticky; top: 0; }
  td { white-space: nowrap; }
  td.key, th.key { text-align: left; font-family: ui-monospace, Menlo, Consolas, monospace; }
  td.verdict, td.note, th.verdict, th.note { text-align: left; white-space: normal; }
  td.verdict { min-width: 9rem; }
  td.change, td.win { white-space: normal; }
  /* Wide enough: a number and its interval on one line, and the notes wrap instead. */
  @media (min-width: 1220px) { td.change, td.win { white-space: nowrap; } }
  td.note { color: #6a5200; }
  tr.significant td.verdict { color: #a3261b; font-weight: 600; }
  tr.unchanged td { color: #8a8f99; }
  figure { margin: .8rem 0 1.4rem; }
  figure img { max-width: 100%; height: auto; display: block; }
  figcaption { font-size: .85rem; color: #555; }
  .notice { background: #fff6db; border-left: 4px solid #e0b100; padding: .4rem .8rem; }
  /* A phone: every table row becomes a card of "column: value" lines, so no column is ever off the edge. */
  @media (max-width: 1000px) {
    body { padding: 0 .7rem 2rem; }
    table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; }
    table.stack thead { display: none; }
    table.stack tr { border: 1px solid #d8dde6; border-radius: 6px; margin: 0 0 .6rem; padding: .2rem .55rem; }
    table.stack td { display: flex; justify-content: space-between; gap: .8rem; white-space: normal;
                     text-align: right; padding: .12rem 0; border-bottom: 1px dotted #e1e5ec; min-width: 0;
                     overflow-wrap: anywhere; }
    table.stack td:last-child { border-bottom: 0; }
    table.stack td:empty { display: none; }
    table.stack td::before { content: attr(data-label); flex: 0 0 42%; text-align: left; font-weight: 600;
                             color: #3b4252; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    table.stack td.key { font-weight: 700; }
    table.stack td.verdict, table.stack td.note { text-align: right; }
  }
</style>
</head>
<body>
<h1>d20 Arena report</h1>
<p class="run">Results: <code>{{ results | t }}</code>.
{%- if manifest %} Run started {{ manifest.started | t }}, finished {{ manifest.finished | t }};
{{ manifest.encounters_per_second | t }} encounters/s;{% endif %} commit <code>{{ commit }}</code>.
{%- if seeds %} Seeds: {{ seeds }} (encounter i has the same seed under every rule set).{% endif %}</p>
<p class="run">Changes are paired over the shared encounters (the same seeds under every rule set), with t intervals
drawn at the level that agrees with each Holm-corrected decision (alpha {{ alpha }}); win rates carry 95% Wilson
intervals; a lucky hit is a hit whose chance was 25% or less.</p>
{% for s in sections %}
<section>
<h2>{{ (s.name or "(unnamed scenario)") | t }}</h2>
<dl class="facts">
  {% if s.facts.description %}<dt>What</dt><dd>{{ s.facts.description }}</dd>{% endif %}
  {% if s.facts.party %}<dt>Party</dt><dd>{{ s.facts.party }}</dd>{% endif %}
  {% if s.facts.monsters %}<dt>Monsters</dt><dd>{{ s.facts.monsters }}</dd>{% endif %}
  {% if s.facts.el %}<dt>Encounter Level</dt><dd>{{ s.facts.el }}{% if s.facts.party_level %} against party level
    {{ s.facts.party_level }}{% endif %}</dd>{% endif %}
  {% if s.facts.n %}<dt>Encounters</dt><dd>{{ s.facts.n }} per rule set, seed {{ s.facts.seed }}</dd>{% endif %}
  <dt>Baseline</dt><dd><code>{{ s.baseline | t }}</code></dd>
</dl>
{% if s.unchanged %}
<p class="notice">{{ s.unchanged | length }} rule set(s) fought exactly the same fights as a simpler one, so they
change nothing for this scenario (for example <code>+luck</code> when nobody presses luck):
{% for key, twin in s.unchanged %}<code>{{ key | t }}</code> = <code>{{ twin | t }}</code>{{ ", " if not loop.last }}{% endfor %}.</p>
{% endif %}
{% for part in s.parts %}
{% include "html/" ~ part.kind %}
{% endfor %}
{{ s.combatants | safe }}
</section>
{% endfor %}
</body>
</html>
"""

HTML_TABLE = """{# a table that wraps at a laptop's width and stacks into cards on a phone #}
<div class="table-box"><table class="stack">
<thead><tr>{% for key, head in part.columns.items() %}<th class="{{ 'key' if key == 'rules' else key }}">{{ head }}</th>{% endfor %}</tr></thead>
<tbody>
{% for r in part.rows %}
<tr class="{{ 'significant' if r.verdict and r.verdict.startswith('significant') }}{{ ' unchanged' if r.note and r.note != 'baseline' }}">
{% for key, head in part.columns.items() %}<td class="{{ 'key' if key == 'rules' else ('change' if key.endswith('_change') else key) }}" data-label="{{ head }}">{{ r[key] | cell }}</td>{% endfor %}
</tr>
{% endfor %}
</tbody>
</table></div>
"""

HTML_PARTS = {
    "changes": """<h3>What each rule set changes against {{ part.baseline | t }}</h3>
<p>{% if part.moved %}Moved after Holm's correction: {{ part.moved | join(", ") }}.{% else %}Nothing moved
significantly after Holm's correction.{% endif %} Sorted by the change of the {{ part.lead }}, the party's best first.</p>
<figure><img src="{{ part.image.src }}" alt="{{ part.image.alt }}">
<figcaption>The change of the {{ part.shown | join(" and of the ") }}; filled: significant after Holm's correction.</figcaption>
</figure>
{% include "html/table" %}
""",
    "grids": """<h3>The variant grid</h3>
{% for map in part.maps %}
<figure><img src="{{ map.image.src }}" alt="{{ map.image.alt }}">
<figcaption>Rows: the die and players roll all; columns: modifiers, open-ended rolls and called shots. Each cell is
the change of the {{ map.label }} against {{ part.baseline | t }}, in {{ map.unit }}; blue is better for the party,
red worse.</figcaption></figure>
{% endfor %}
""",
    "details": """<h3>Details</h3>
{% include "html/table" %}
{% for image in part.images %}
<figure><img src="{{ image.src }}" alt="{{ image.alt }}"></figure>
{% endfor %}
""",
}
"""The parts of a scenario's section, by ``kind`` (:func:`arena.study.reports.report._section` lists them in order).
A new part is a template here and in :data:`MARKDOWN_PARTS`, and its dict in the section's ``parts``."""

MARKDOWN = """# d20 Arena report

- Results: {{ results | code(1000) }}
{% if manifest -%}
- Run started {{ manifest.started | md(80) }}, finished {{ manifest.finished | md(80) }}; {{ manifest.encounters_per_second | md(40) }} encounters/s; commit {{ commit | md(100) }}.
{% else -%}
- Commit {{ commit | md(100) }}.
{% endif -%}
{% if seeds %}- Seeds: {{ seeds | md(4000) }} (encounter i has the same seed under every rule set).
{% endif -%}
- Changes are paired over the shared encounters, with t intervals at the level that agrees with each Holm-corrected decision (alpha {{ alpha }}); win rates carry 95% Wilson intervals; a lucky hit is a hit whose chance was 25% or less.
{% for s in sections %}

## {{ s.name | md if s.name else "(unnamed scenario)" }}

{% if s.facts.description %}- **What**: {{ s.facts.description | md(1000) }}
{% endif -%}
{% if s.facts.party %}- **Party**: {{ s.facts.party | md(1000) }}
{% endif -%}
{% if s.facts.monsters %}- **Monsters**: {{ s.facts.monsters | md(1000) }}
{% endif -%}
{% if s.facts.el %}- **Encounter Level**: {{ s.facts.el | md }}{% if s.facts.party_level %} against party level {{ s.facts.party_level | md }}{% endif %}
{% endif -%}
{% if s.facts.n %}- **Encounters**: {{ s.facts.n | md }} per rule set, seed {{ s.facts.seed | md }}
{% endif -%}
- **Baseline**: {{ s.baseline | code }}
{% if s.unchanged %}
> {{ s.unchanged | length }} rule set(s) fought exactly the same fights as a simpler one, so they change nothing for this scenario: {% for key, twin in s.unchanged %}{{ key | code }} = {{ twin | code }}{{ ", " if not loop.last }}{% endfor %}.
{% endif %}
{%- for part in s.parts %}
{% include "md/" ~ part.kind %}
{%- endfor %}{{ s.combatants }}
{%- endfor %}
"""

MARKDOWN_TABLE = """| {{ part.columns.values() | join(" | ") }} |
|{% for key in part.columns %}{{ "---" if key in ("rules", "verdict", "note") else "---:" }}|{% endfor %}
{% for r in part.rows -%}
| {% for key in part.columns %}{{ r[key] | code if key == "rules" else r[key] | md(400) }}{{ " | " if not loop.last }}{% endfor %} |
{% endfor %}"""

MARKDOWN_PARTS = {
    "changes": """
### What each rule set changes against {{ part.baseline | md }}

{% if part.moved %}Moved after Holm's correction: {{ part.moved | join(", ") }}.{% else %}Nothing moved significantly after Holm's correction.{% endif %} Sorted by the change of the {{ part.lead }}, the party's best first.

![{{ part.image.alt }}]({{ part.image.src }})

{% include "md/table" %}""",
    "grids": """
### The variant grid
{% for map in part.maps %}
![{{ map.image.alt }}]({{ map.image.src }})
{% endfor %}""",
    "details": """
### Details

{% include "md/table" %}
{% for image in part.images %}![{{ image.alt }}]({{ image.src }})
{{ "" if loop.last else "\\n" }}{% endfor %}""",
}


def _keep_interval(value: object) -> str:
    """A table cell for HTML: printable, with an interval's words held together (``-0.5\u00a0to\u00a0+0.2``) so
    that a narrow column breaks a change only between its value and its interval."""
    return printable(value, limit=1000).replace(" to ", "\u00a0to\u00a0")


def _environment(fmt: str, md_text: Any, md_code: Any) -> Any:
    import jinja2

    templates = {"html/page": HTML, "html/table": HTML_TABLE, "md/page": MARKDOWN, "md/table": MARKDOWN_TABLE}
    templates.update({f"html/{kind}": text for kind, text in HTML_PARTS.items()})
    templates.update({f"md/{kind}": text for kind, text in MARKDOWN_PARTS.items()})
    env = jinja2.Environment(
        loader=jinja2.DictLoader(templates),
        autoescape=fmt == "html",
        undefined=jinja2.ChainableUndefined,
        keep_trailing_newline=True,
        trim_blocks=fmt == "html",
        lstrip_blocks=fmt == "html",
    )
    env.filters["t"] = lambda value, limit=1000: printable(value, limit=limit)
    env.filters["cell"] = _keep_interval
    env.filters["md"] = lambda value, limit=200: md_text(value, limit)
    env.filters["code"] = lambda value, limit=200: md_code(value, limit)
    return env


def render(fmt: str, context: dict, md_text: Any, md_code: Any) -> str:
    """The page for ``fmt`` (``md`` or ``html``) from the report's context (:func:`arena.study.reports.report.build_report`);
    ``md_text`` and ``md_code`` escape a value as markdown text and as a code span."""
    text = _environment(fmt, md_text, md_code).get_template(f"{fmt}/page").render(**context)
    return text if text.endswith("\n") else text + "\n"
