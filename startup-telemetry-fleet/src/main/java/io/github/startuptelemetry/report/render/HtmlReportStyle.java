package io.github.startuptelemetry.report.render;

/**
 * The stylesheet of {@link HtmlReport}, inlined into every page so that the page needs nothing
 * else: system fonts, plain CSS, no script.
 */
final class HtmlReportStyle {

	static final String CSS = """
			:root { --label: 270px; --stats: 132px; --row: 38px; --ink: #1f2328; --muted: #656d76; --line: #eaeef2; }
			* { box-sizing: border-box; }
			body { margin: 0; padding: 22px 26px 28px; background: #f4f6f8; color: var(--ink);
			  font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
			code, pre { font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
			code { background: #eaeef2; padding: 1px 5px; border-radius: 4px; }
			.summary { background: #fff; border: 1px solid #d0d7de; border-left: 6px solid #1a7f37; border-radius: 8px;
			  padding: 14px 18px 12px; margin-bottom: 14px; }
			.summary.bad { border-left-color: #cf222e; }
			h1 { display: flex; align-items: center; gap: 10px; margin: 0 0 4px; font-size: 22px; font-weight: 650; }
			.verdict { margin: 2px 0; font-size: 15px; }
			.verdict .who { color: #bc4c00; }
			.summary.bad .verdict .who { color: #cf222e; }
			.meta { margin: 6px 0 0; color: var(--muted); font-size: 12px; }
			pre.error { margin: 10px 0 0; max-height: 170px; overflow: auto; padding: 8px 10px; white-space: pre-wrap;
			  background: #fff5f5; border: 1px solid #ffcecb; border-radius: 6px; color: #82071e; }
			.badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 11px; font-weight: 650;
			  white-space: nowrap; background: #dafbe1; color: #116329; }
			.badge.bad { background: #ffebe9; color: #a40e26; }
			.badge.muted { background: #eaeef2; color: #57606a; }
			h1 .badge { padding: 2px 10px; font-size: 13px; }
			.chart { position: relative; display: grid; grid-template-columns: minmax(0, 1fr); overflow: clip; background: #fff;
			  border: 1px solid #d0d7de; border-radius: 8px; }
			.row { display: grid; grid-template-columns: var(--label) minmax(0, 1fr) var(--stats); min-height: var(--row);
			  border-top: 1px solid var(--line); }
			.row:first-child { border-top: 0; }
			.label { display: flex; flex-direction: column; justify-content: center; min-width: 0; padding: 3px 10px 3px 14px;
			  border-right: 1px solid var(--line); }
			.line { display: flex; align-items: center; gap: 8px; min-width: 0; }
			.name { overflow: hidden; font-weight: 650; white-space: nowrap; text-overflow: ellipsis; }
			.line .badge { margin-left: auto; }
			.sub { display: flex; gap: 8px; min-width: 0; color: var(--muted); font-size: 11px; white-space: nowrap; }
			.sub span { overflow: hidden; text-overflow: ellipsis; }
			.note { color: #bc4c00; font-weight: 650; }
			.track { position: relative; background-image: linear-gradient(to right, #e9ecef 1px, transparent 1px);
			  background-size: var(--grid) 100%; border-right: 1px solid #e9ecef; }
			.stats { display: flex; flex-direction: column; justify-content: center; padding: 3px 12px; text-align: right;
			  font-variant-numeric: tabular-nums; border-left: 1px solid var(--line); }
			.stats small { color: var(--muted); font-size: 11px; }
			.axis { position: sticky; top: 0; z-index: 3; min-height: 28px; background: #f6f8fa; color: var(--muted);
			  font-size: 11px; }
			.axis .label, .axis .stats { font-size: 11px; }
			.tick { position: absolute; top: 6px; transform: translateX(-50%); white-space: nowrap;
			  font-variant-numeric: tabular-nums; }
			.tick:first-child { transform: none; padding-left: 4px; }
			.tick:last-child { transform: translateX(-100%); padding-right: 4px; }
			.bar { position: absolute; top: 50%; height: 22px; margin-top: -11px; min-width: 2px; overflow: hidden;
			  background: var(--c, #8c959f); color: var(--t, #fff); border-radius: 3px;
			  box-shadow: inset -1px 0 0 rgba(255, 255, 255, .7); }
			.bar span { display: block; padding: 0 5px; overflow: hidden; font-size: 11px; font-weight: 550; line-height: 22px;
			  white-space: nowrap; }
			.bar:hover { z-index: 2; outline: 2px solid var(--ink); }
			.bar.idle { background: repeating-linear-gradient(135deg, var(--c) 0 5px, #f1f3f5 5px 10px); color: #424a53; }
			.bar .cpu { position: absolute; left: 0; bottom: 0; height: 4px; background: rgba(31, 35, 40, .6); }
			.bar.waiting { background-image: repeating-linear-gradient(45deg, rgba(255, 255, 255, .5) 0 4px, transparent 4px 8px); }
			.bar.slowest { z-index: 1; outline: 3px solid var(--ink); outline-offset: 1px; }
			.bar.slowest span { font-weight: 750; }
			.bar.lag { background: repeating-linear-gradient(135deg, #424a53 0 3px, #d0d7de 3px 6px); color: var(--ink); }
			.bar.gap { height: 4px; margin-top: -2px; background: #afb8c1; }
			.bar.wait { background: repeating-linear-gradient(135deg, #6e7781 0 4px, #eaeef2 4px 9px); color: var(--ink);
			  box-shadow: inset 0 0 0 1px #afb8c1; }
			.edge { position: absolute; grid-column: 1; z-index: 2; pointer-events: none; width: 0;
			  top: calc(var(--row) / 2); bottom: calc(var(--row) / 2 - 2px);
			  left: calc(var(--label) + (100% - var(--label) - var(--stats)) * var(--at) - 1px);
			  border-left: 3px solid #5f3dc4; }
			.edge::after { content: ""; position: absolute; left: -7px; bottom: -4px; border: 5.5px solid transparent;
			  border-top: 8px solid #5f3dc4; border-bottom: 0; }
			.edge.up::after { top: -4px; bottom: auto; border-top: 0; border-bottom: 8px solid #5f3dc4; }
			.dependencies { margin-top: 14px; padding: 10px 14px; background: #fff; border: 1px solid #d0d7de;
			  border-radius: 8px; }
			.dependencies h2 { margin: 8px 0 4px; font-size: 14px; }
			.dependencies h2:first-child { margin-top: 0; }
			.dependencies .chain-key { margin: 0 0 4px; color: var(--muted); font-size: 12px; }
			.dependencies ol, .dependencies ul { margin: 0; padding-left: 22px; }
			.dependencies li { margin: 2px 0; }
			.bar.spread { background: linear-gradient(to right, #d0d7de, #8c959f); color: var(--ink); }
			.row.replica .label { padding-left: 26px; }
			details.replicas { position: relative; z-index: 5; min-width: 0; overflow-x: auto; padding: 4px 14px 6px 26px;
			  background: #fff; border-top: 1px solid var(--line); font-size: 12px; }
			details.replicas summary { cursor: pointer; color: #0969da; }
			details.replicas table { border-collapse: collapse; margin: 6px 0; font-variant-numeric: tabular-nums; }
			details.replicas th, details.replicas td { padding: 1px 10px 1px 0; text-align: right; white-space: nowrap; }
			details.replicas th:first-child, details.replicas td:first-child { text-align: left; }
			details.replicas tr.bad td { color: #a40e26; }
			.bar.opaque { background: #8c959f; }
			.bar.failed { background: repeating-linear-gradient(135deg, #cf222e 0 7px, #e5534b 7px 14px); }
			.bar.stopped { background: repeating-linear-gradient(135deg, #8c959f 0 7px, #c2c9d0 7px 14px); color: var(--ink); }
			.bar.idle span, .bar.lag span, .bar.wait span, .bar.failed span, .bar.stopped span { display: inline-block;
			  max-width: calc(100% - 6px); margin: 3px 0 0 3px; padding: 0 5px; border-radius: 2px; background: rgba(255, 255, 255, .92); color: var(--ink);
			  line-height: 16px; }
			.bar.failed span { color: #a40e26; }
			.row.supervisor { background: #f6f8fa; }
			.row.critical { background: #fff8f1; }
			.row.critical .label { box-shadow: inset 5px 0 0 #e8590c; }
			.row.bad { background: #fff5f5; }
			.row.bad .label { box-shadow: inset 5px 0 0 #cf222e; }
			.row.bad .note { color: #cf222e; }
			.row.muted .note { color: var(--muted); font-weight: 400; }
			.row.bean { min-height: 22px; }
			.row.bean .label { display: block; overflow: hidden; color: #424a53; font-size: 11px; line-height: 21px;
			  white-space: nowrap; text-overflow: ellipsis; }
			.row.bean.more .label { font-style: italic; color: var(--muted); }
			.bar.bean { height: 12px; margin-top: -6px; border-radius: 2px; opacity: .8; }
			.bar.bean span { font-size: 10px; line-height: 12px; }
			.end { position: absolute; top: 0; bottom: 0; z-index: 4; pointer-events: none;
			  left: calc(var(--label) + (100% - var(--label) - var(--stats)) * var(--at)); border-left: 2px dashed #1a7f37; }
			.end.bad { border-left-color: #cf222e; }
			.end span { position: absolute; top: 4px; right: 4px; padding: 1px 6px; border-radius: 3px; background: #1a7f37;
			  color: #fff; font-size: 11px; font-weight: 700; white-space: nowrap; }
			.end.bad span { background: #cf222e; }
			.legend { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 16px; margin-top: 14px; color: #424a53;
			  font-size: 12px; }
			.legend h2 { margin: 0 2px 0 0; color: var(--muted); font-size: 11px; letter-spacing: .06em;
			  text-transform: uppercase; }
			.key { display: inline-flex; align-items: center; gap: 6px; white-space: nowrap; }
			.compare { margin: 0 0 18px; padding: 10px 14px; border: 1px solid #d0d7de; border-radius: 6px; }
			.compare[data-regressed=true] { border-color: #cf222e; }
			.compare h2 { font-size: 14px; margin: 0 0 6px; }
			.compare table { border-collapse: collapse; width: 100%; font-size: 12px; }
			.compare td, .compare th { padding: 3px 8px; text-align: left; border-top: 1px solid #eaeef2; }
			.compare td.pair { width: 40%; }
			.compare .pair i { display: block; height: 7px; margin: 2px 0; border-radius: 2px; min-width: 1px; }
			.compare .pair .before { background: #8c959f; }
			.compare .pair .after { background: #4e79a7; }
			.compare tr.regressed .pair .after { background: #cf222e; }
			.compare tr.regressed td { color: #a40e26; }
			.compare tr.faster .pair .after { background: #2da44e; }
			.swatch { display: inline-block; width: 16px; height: 12px; border-radius: 2px; background: var(--c); }
			.swatch.idle { background: repeating-linear-gradient(135deg, var(--c) 0 3px, #f1f3f5 3px 6px); }
			.swatch.lag { background: repeating-linear-gradient(135deg, #424a53 0 2px, #d0d7de 2px 4px); }
			.swatch.wait { background: repeating-linear-gradient(135deg, #6e7781 0 2px, #eaeef2 2px 5px); }
			.swatch.edgeish { width: 3px; height: 14px; background: #5f3dc4; }
			.swatch.outline { background: #fff; outline: 3px solid var(--ink); outline-offset: -3px; }
			.swatch.cpuish { height: 4px; background: rgba(31, 35, 40, .6); }
			.swatch.beanish { height: 7px; background: #f28e2b; opacity: .8; }
			footer { margin-top: 10px; color: var(--muted); font-size: 11px; }
			""";

	private HtmlReportStyle() {
	}

}
