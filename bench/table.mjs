// Prints the benchmark's figures as a Markdown table, each against its target.
import console from "node:console";
import { round } from "./stats.mjs";

const us = (v) => `${Math.round(v).toLocaleString("en-US")} µs`;
const ms = (v) => `${round(v, 2)} ms`;
const times = (v) => (v === null ? "n/a" : `${round(v, 2)}×`);

/** Each target: [what it asks, the measured ratio or value, met? (undefined: not measured)]. */
export function targets(r) {
  const g = r.gate;
  const gate1 = g["1"].p50_us / r.floor_turn.p50_us;
  return {
    gate1: ["≤ 1.3× floor_turn p50", times(gate1), gate1 <= 1.3],
    extra: ["≤ 25 µs", us(r.extra_callback_us), r.extra_callback_us <= 25],
    deny: ["≤ 5 ms", ms(r.deny_with_hung_sibling_ms), r.deny_with_hung_sibling_ms <= 5],
    timeout: ["≤ 20 ms", ms(r.timeout_overshoot_ms), r.timeout_overshoot_ms <= 20],
    events: [
      "≥ 20,000 /s",
      `${r.events_per_s.toLocaleString("en-US")} /s`,
      r.events_per_s >= 20_000,
    ],
    slowdown: ["≤ 1.5", times(r.observer_slowdown_ratio), r.observer_slowdown_ratio <= 1.5],
    rss: ["≤ 64 KiB", `${r.rss_per_session_kib} KiB`, r.rss_per_session_kib <= 64],
    extraClient: ["≤ 8 µs", us(r.extra_callback_client_us), r.extra_callback_client_us <= 8],
    eventsTwice:
      r.events_per_s_baseline === undefined
        ? undefined
        : [
            "≥ 2× the baseline build's",
            times(r.events_per_s_client / r.events_per_s_baseline),
            r.events_per_s_client >= 2 * r.events_per_s_baseline,
          ],
    longSession: [
      "≤ 1.2",
      times(r.long_session.current.cpu_ratio_last_first),
      r.long_session.current.cpu_ratio_last_first === null
        ? undefined
        : r.long_session.current.cpu_ratio_last_first <= 1.2,
    ],
    initialize: [
      "≤ 1.5× bare node",
      times(r.cold_start.current.initialize_over_bare_node),
      r.cold_start.current.initialize_over_bare_node <= 1.5,
    ],
    firstSession: [
      "≤ 2× bare node",
      times(r.cold_start.current.first_session_over_bare_node),
      r.cold_start.current.first_session_over_bare_node <= 2,
    ],
    policy: [
      "≤ 10 s idle (100 cases)",
      `${r.policy_test.current.wall_s} s`,
      r.policy_test.cases !== 100 ? undefined : r.policy_test.current.wall_s <= 10,
    ],
  };
}

/** The results as lines of a Markdown table (also readable on a terminal). */
export function tableLines(r) {
  const t = targets(r);
  const d = r.detail;
  const c = d.config;
  const headline = String(c.observers.at(-1));
  const row = (figure, p50, p99 = "", target) => {
    const [wanted, got, ok] = target ?? ["", "", undefined];
    const verdict = ok === undefined ? "" : ok ? "met" : "**not met**";
    return `| ${figure} | ${p50} | ${p99} | ${wanted} | ${got} | ${verdict} |`;
  };
  const gateRow = (n, target) =>
    row(
      `gate, ${n} callback${n === "1" ? "" : "s"} answering at once`,
      us(r.gate[n].p50_us),
      us(r.gate[n].p99_us),
      target,
    );
  // The raw floor of the extra callback with one client, beside the agent's figure for it.
  const floorRows = (floor, agentFigure, floorCpu) => [
    row(
      `↳ raw floor: the same slope from an agent that only writes the requests and reads the replies (hookgate − floor: ${us(agentFigure - floor)})`,
      us(floor),
    ),
    row(
      "↳ raw floor: CPU per extra request (32 → 128): agent / client",
      `${us(floorCpu.agent)} / ${us(floorCpu.client)}`,
    ),
  ];
  const observerRows = Object.entries(d.observers).flatMap(([k, o]) => [
    row(
      `events delivered at the client, ${k} PostToolUse observers`,
      `${o.events_per_s.toLocaleString("en-US")} /s`,
      "",
      k === headline ? t.events : undefined,
    ),
    row(
      `turn wall time with ${k} observers / without (${ms(o.turn_ms)} / ${ms(d.turn_without_hooks_ms)})`,
      times(o.slowdown_ratio),
      "",
      k === headline ? t.slowdown : undefined,
    ),
  ]);
  return [
    `hookgate bench: node ${r.node}, ${r.cpus} CPUs, ${c.calls} calls per round-trip figure ` +
      `(${c.rounds} interleaved rounds), ${c.calls}-call turns, ${c.sessions} sessions; ${d.wall_s} s`,
    "",
    "| figure | p50 / value | p99 | target | measured | |",
    "|---|---:|---:|---|---:|---|",
    row("floor: plain request agent → client → agent", us(r.floor.p50_us), us(r.floor.p99_us)),
    row(
      "floor_turn: the same, between a turn's `session/update` frames",
      us(r.floor_turn.p50_us),
      us(r.floor_turn.p99_us),
    ),
    gateRow("1", t.gate1),
    row("↳ its `_hooks/run` round trip, inside the turn", us(d.gate_1_round_trip_p50_us)),
    row("↳ the gate's own work (gate time − round trip)", us(d.gate_1_own_work_p50_us)),
    gateRow("8"),
    gateRow("32"),
    gateRow("128"),
    row(
      "↳ critical path per extra callback: (gate[128] − gate[32]) / 96",
      us(r.extra_callback_us),
      "",
      t.extra,
    ),
    row(
      "↳ CPU per extra callback (32 → 128): agent / client",
      `${us(d.cpu_per_callback_us.agent)} / ${us(d.cpu_per_callback_us.client)}`,
    ),
    ...floorRows(r.floor_extra_callback_us, r.extra_callback_us, d.floor_cpu_per_callback_us),
    row(
      "deny while a sibling never answers (30 s timeout): median, max",
      ms(r.deny_with_hung_sibling_ms),
      ms(d.deny_max_ms),
      t.deny,
    ),
    row(
      "timeout 0.2 s: decision time − 200 ms: median, max",
      ms(r.timeout_overshoot_ms),
      ms(d.timeout_overshoot_max_ms),
      t.timeout,
    ),
    ...observerRows,
    row(
      "session/new with hooks, one connection",
      us(r.session_new_p50_us),
      us(d.session_new_p99_us),
    ),
    row("agent RSS growth per session", `${r.rss_per_session_kib} KiB`, "", t.rss),
    row(
      "hookgate/client: critical path per extra callback (gate[128] − gate[32]) / 96",
      us(r.extra_callback_client_us),
      "",
      t.extraClient,
    ),
    ...floorRows(
      r.floor_extra_callback_client_us,
      r.extra_callback_client_us,
      d.floor_cpu_per_callback_us_client,
    ),
    row(
      `hookgate/client: events delivered, ${headline} PostToolUse observers`,
      `${r.events_per_s_client.toLocaleString("en-US")} /s`,
      "",
      t.eventsTwice,
    ),
    ...(r.extra_callback_baseline_us === undefined
      ? []
      : [
          row(
            "baseline build, stock client: critical path per extra callback",
            us(r.extra_callback_baseline_us),
          ),
          row(
            "baseline build: CPU per extra callback (32 → 128): agent / client",
            `${us(d.cpu_per_callback_us_baseline.agent)} / ${us(d.cpu_per_callback_us_baseline.client)}`,
          ),
        ]),
    ...(r.events_per_s_baseline === undefined
      ? []
      : [
          row(
            `baseline build, stock client: events delivered, ${headline} observers`,
            `${r.events_per_s_baseline.toLocaleString("en-US")} /s`,
          ),
        ]),
    ...Object.entries(r.long_session).flatMap(([build, s]) => [
      row(
        `long session (${build}), turns ${s.first.turns.join("–")} / ${s.middle.turns.join("–")} / ${s.last.turns.join("–")}: p50 wall per turn`,
        `${ms(s.first.wall_p50_ms)} / ${ms(s.middle.wall_p50_ms)} / ${ms(s.last.wall_p50_ms)}`,
      ),
      row(
        `long session (${build}): agent CPU per turn, and last / first`,
        `${ms(s.first.cpu_ms_per_turn)} / ${ms(s.middle.cpu_ms_per_turn)} / ${ms(s.last.cpu_ms_per_turn)}`,
        times(s.cpu_ratio_last_first),
        build === "current" ? t.longSession : undefined,
      ),
    ]),
    row("cold start: bare `node -e ''` spawn to exit", ms(r.cold_start.bare_node_ms)),
    ...Object.entries(r.cold_start.import_only ?? {}).map(([name, f]) =>
      row(
        `↳ floor: a node that only loads ${name === "zod" ? "zod" : "the ACP SDK"}, bundled, spawn to exit (/ bare node)`,
        `${ms(f.ms)} (${times(f.over_bare_node)})`,
      ),
    ),
    ...["current", "baseline"].flatMap((build) => {
      const c = r.cold_start[build];
      if (!c) return [];
      return [
        row(
          `cold start (${build}): spawn → initialize answered / → first session; RSS after it`,
          `${ms(c.initialize_ms)} / ${ms(c.first_session_ms)}`,
          `${c.rss_after_first_session_mib} MiB`,
          build === "current" ? t.initialize : undefined,
        ),
        row(
          `↳ (${build}) first session / bare node`,
          times(c.first_session_over_bare_node),
          "",
          build === "current" ? t.firstSession : undefined,
        ),
      ];
    }),
    ...["current", "baseline"].flatMap((build) => {
      const p = r.policy_test[build];
      if (!p) return [];
      return [
        row(
          `\`hookgate test\`, ${r.policy_test.cases} cases (${build}): wall time, load at the end`,
          `${p.wall_s} s`,
          `load ${p.load_avg}`,
          build === "current" ? t.policy : undefined,
        ),
      ];
    }),
    row("load average (1 min) during the run: min – max", `${r.load_avg.min} – ${r.load_avg.max}`),
  ];
}

export function printTable(r) {
  console.log(tableLines(r).join("\n"));
}
