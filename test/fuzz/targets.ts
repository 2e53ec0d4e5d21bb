// The fuzz targets of issue 20, item 7: every parser nrictl runs on bytes or text that
// someone else wrote. Each target is a fast-check property over random and mutated
// input; it holds when the parser
// - returns, or throws its own layer's typed error and nothing else (no TypeError, no
//   RangeError from a stack overflow);
// - never hangs: each execution is timed, and a slow one fails the property;
// - stays bounded: a decoder holds at most one frame plus one chunk, an error message is
//   one line of bounded length whatever the input;
// - round-trips where the encoding is canonical.
// test/fuzz/fuzz.test.ts runs each a few hundred times in `npm test`; test/fuzz/run.ts
// (`npm run fuzz`) runs the same properties as long as asked, and counts.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { PluginNameError, parsePluginName } from '../../src/api/plugin-name.js';
import { configSyntaxError } from '../../src/checks/config-syntax.js';
import { lintContainerd } from '../../src/checks/runtime-config/containerd.js';
import { lintCrio } from '../../src/checks/runtime-config/crio.js';
import { lintIsulad } from '../../src/checks/runtime-config/isulad.js';
import { ExpectationError, parseExpectations } from '../../src/expect/file.js';
import { MUX_PAYLOAD_MAX, MuxDecoder, MuxProtocolError, encodeMuxHeader } from '../../src/mux/index.js';
import { ScenarioError } from '../../src/runtime/sim/errors.js';
import { parseScenario, parseScenarioResources } from '../../src/runtime/sim/scenario.js';
import {
  FrameDecoder,
  HEADER_LENGTH,
  MessageType,
  TtrpcProtocolError,
  decodeRequest,
  decodeResponse,
  encodeFrame,
  encodeRequest,
  encodeResponse,
  type TtrpcRequest,
  type TtrpcResponse,
} from '../../src/ttrpc/index.js';
import { DurationError, GO_DURATION_MAX_MS, TIMER_MAX_MS, parseDuration } from '../../src/units/index.js';

export interface FuzzTarget {
  name: string;
  /** A fresh property; fc.check/fc.assert run it. */
  property: () => fc.IRawProperty<unknown[], false>;
  /** Runs in `npm test` (the whole suite stays within a few seconds). */
  ciRuns: number;
}

/** No single execution may take this long: a parser that does is as good as hung. */
export const SLOW_MS = 2000;
/** The longest error message or finding any input may produce. */
const MESSAGE_MAX = 4200;

function timed<T>(f: () => T): T {
  const started = performance.now();
  const result = f();
  const ms = performance.now() - started;
  if (ms > SLOW_MS) throw new Error(`one execution took ${ms.toFixed(0)} ms`);
  return result;
}

/** Throws unless err is one of the expected error classes, with a one-line message of bounded length. */
function expectOwnError(err: unknown, ...classes: Array<new (...args: never[]) => Error>): void {
  if (!classes.some((c) => err instanceof c)) throw err;
  const message = (err as Error).message;
  if (/[\r\n]/.test(message)) throw new Error(`a message of more than one line: ${JSON.stringify(message)}`);
  if (message.length > MESSAGE_MAX) throw new Error(`a message of ${message.length} characters`);
}

// ---- bytes: mutations and splits --------------------------------------------------------

type Mutation = { kind: 'flip' | 'set' | 'insert' | 'delete' | 'cut'; at: number; value: number };
const mutations = fc.array(
  fc.record({
    kind: fc.constantFrom<Mutation['kind']>('flip', 'set', 'insert', 'delete', 'cut'),
    at: fc.nat(),
    value: fc.integer({ min: 0, max: 255 }),
  }),
  { minLength: 1, maxLength: 6 },
);

function mutateBytes(b: Buffer, ms: Mutation[]): Buffer {
  let out = Buffer.from(b);
  for (const m of ms) {
    const at = out.length === 0 ? 0 : m.at % out.length;
    if (m.kind === 'insert') out = Buffer.concat([out.subarray(0, at), Buffer.from([m.value]), out.subarray(at)]);
    else if (out.length === 0) continue;
    else if (m.kind === 'delete') out = Buffer.concat([out.subarray(0, at), out.subarray(at + 1)]);
    else if (m.kind === 'cut') out = out.subarray(0, at);
    else if (m.kind === 'flip') out[at] = out[at] ^ (m.value || 0x80);
    else out[at] = m.value;
  }
  return out;
}

/** Cuts b at the given offsets (taken modulo its length). */
function split(b: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (b.length + 1)))].sort((x, y) => x - y);
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of [...points, b.length]) {
    out.push(b.subarray(prev, p));
    prev = p;
  }
  return out;
}

const bytesLike = (valid: fc.Arbitrary<Buffer>): fc.Arbitrary<Buffer> =>
  fc.oneof(
    fc.uint8Array({ maxLength: 3000 }).map((a) => Buffer.from(a)),
    valid,
    fc.tuple(valid, mutations).map(([b, ms]) => mutateBytes(b, ms)),
  );

// ---- ttrpc --------------------------------------------------------------------------------

const TTRPC_MAX = 1024;

const requestArb: fc.Arbitrary<TtrpcRequest> = fc.record({
  service: fc.string({ unit: 'binary', maxLength: 40 }),
  method: fc.string({ unit: 'binary', maxLength: 20 }),
  payload: fc.uint8Array({ maxLength: 300 }),
  timeoutNano: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })),
  metadata: fc.array(
    fc.record({
      key: fc.string({ unit: 'binary', maxLength: 10 }),
      value: fc.string({ unit: 'binary', maxLength: 10 }),
    }),
    { maxLength: 3 },
  ),
});

const responseArb: fc.Arbitrary<TtrpcResponse> = fc.record(
  {
    status: fc.record({ code: fc.integer({ min: 1, max: 16 }), message: fc.string({ unit: 'binary', maxLength: 40 }) }),
    payload: fc.uint8Array({ maxLength: 300 }),
  },
  { requiredKeys: ['payload'] },
);

const ttrpcFrameArb = fc
  .record({
    id: fc.nat(1000).map((n) => n * 2 + 1),
    type: fc.constantFrom(MessageType.Request, MessageType.Response, MessageType.Data, 7),
    flags: fc.constantFrom(0, 1, 2, 4),
    request: requestArb,
  })
  .map((r) => encodeFrame(r.id, r.type as MessageType, encodeRequest(r.request), r.flags));

const ttrpcStreamArb = fc.array(ttrpcFrameArb, { minLength: 1, maxLength: 6 }).map((fs) => Buffer.concat(fs));

const ttrpcFramesGarbage: FuzzTarget = {
  name: 'ttrpc frame decoder: random and mutated bytes',
  ciRuns: 300,
  property: () =>
    fc.property(
      bytesLike(ttrpcStreamArb),
      fc.array(fc.nat(), { maxLength: 12 }),
      fc.constantFrom<'throw' | 'skip'>('throw', 'skip'),
      fc.constantFrom<'throw' | 'pass'>('throw', 'pass'),
      (bytes, cuts, oversize, unknownTypes) =>
        timed(() => {
          const d = new FrameDecoder({ maxMessageLength: TTRPC_MAX, oversize, unknownTypes });
          try {
            for (const c of split(bytes, cuts)) {
              for (const f of d.push(c)) {
                if (!f.oversize && f.payload.length !== f.header.length) throw new Error('payload length mismatch');
                if (!f.oversize && f.header.length > TTRPC_MAX) throw new Error('an oversize frame passed');
              }
              if (d.buffered > HEADER_LENGTH + TTRPC_MAX + c.length) throw new Error(`holds ${d.buffered} bytes`);
            }
          } catch (err) {
            expectOwnError(err, TtrpcProtocolError);
          }
        }),
    ),
};

const ttrpcFramesRoundTrip: FuzzTarget = {
  name: 'ttrpc frame decoder: valid frames round-trip under any split',
  ciRuns: 200,
  property: () =>
    fc.property(fc.array(ttrpcFrameArb, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 20 }), (frames, cuts) =>
      timed(() => {
        const d = new FrameDecoder({ maxMessageLength: 1 << 20, unknownTypes: 'pass' });
        const got = split(Buffer.concat(frames), cuts).flatMap((c) => d.push(c));
        const again = got.map((f) => encodeFrame(f.header.streamId, f.header.type, f.payload, f.header.flags));
        if (!Buffer.concat(again).equals(Buffer.concat(frames)) || d.buffered !== 0)
          throw new Error('frames did not round-trip');
      }),
    ),
};

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

const ttrpcMessagesGarbage: FuzzTarget = {
  name: 'ttrpc message codec: random and mutated bytes',
  ciRuns: 300,
  property: () =>
    fc.property(bytesLike(fc.oneof(requestArb.map(encodeRequest), responseArb.map(encodeResponse))), (bytes) =>
      timed(() => {
        for (const decode of [decodeRequest, decodeResponse]) {
          try {
            decode(bytes);
          } catch (err) {
            expectOwnError(err, TtrpcProtocolError);
          }
        }
      }),
    ),
};

const ttrpcMessagesRoundTrip: FuzzTarget = {
  name: 'ttrpc message codec: requests and responses round-trip, and encoding is canonical',
  ciRuns: 200,
  property: () =>
    fc.property(requestArb, responseArb, (req, resp) =>
      timed(() => {
        const r = decodeRequest(encodeRequest(req));
        if (
          r.service !== req.service ||
          r.method !== req.method ||
          r.timeoutNano !== req.timeoutNano ||
          !sameBytes(r.payload, req.payload) ||
          JSON.stringify(r.metadata) !== JSON.stringify(req.metadata)
        )
          throw new Error('request did not round-trip');
        if (!encodeRequest(r).equals(encodeRequest(req))) throw new Error('request encoding is not canonical');
        const s = decodeResponse(encodeResponse(resp));
        if (JSON.stringify(s.status) !== JSON.stringify(resp.status) || !sameBytes(s.payload, resp.payload))
          throw new Error('response did not round-trip');
        if (!encodeResponse(s).equals(encodeResponse(resp))) throw new Error('response encoding is not canonical');
      }),
    ),
};

// ---- mux ------------------------------------------------------------------------------------

const muxFrameArb = fc.record({
  connId: fc.oneof(fc.constantFrom(0, 1, 2), fc.integer({ min: 0, max: 0xffff_ffff })),
  payload: fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
});
const encodeMux = (frames: Array<{ connId: number; payload: Buffer }>): Buffer =>
  Buffer.concat(frames.flatMap((f) => [encodeMuxHeader(f.connId, f.payload.length), f.payload]));

const muxGarbage: FuzzTarget = {
  name: 'mux frame decoder: random and mutated bytes',
  ciRuns: 300,
  property: () =>
    fc.property(
      bytesLike(fc.array(muxFrameArb, { minLength: 1, maxLength: 10 }).map(encodeMux)),
      fc.array(fc.nat(), { maxLength: 12 }),
      (bytes, cuts) =>
        timed(() => {
          const d = new MuxDecoder({ maxPayload: 4096 });
          const frames: Array<{ connId: number; payload: Buffer }> = [];
          try {
            for (const c of split(bytes, cuts)) frames.push(...d.push(c));
          } catch (err) {
            expectOwnError(err, MuxProtocolError);
          }
          // What came out is exactly a prefix of the input.
          const consumed = encodeMux(frames);
          if (!consumed.equals(bytes.subarray(0, consumed.length)))
            throw new Error('frames are not a prefix of the input');
          if (frames.some((f) => f.payload.length > 4096)) throw new Error('an oversize frame passed');
        }),
    ),
};

const muxRoundTrip: FuzzTarget = {
  name: 'mux frame decoder: valid frames round-trip under any split',
  ciRuns: 200,
  property: () =>
    fc.property(fc.array(muxFrameArb, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 30 }), (frames, cuts) =>
      timed(() => {
        const d = new MuxDecoder({ maxPayload: MUX_PAYLOAD_MAX });
        const got = split(encodeMux(frames), cuts).flatMap((c) => d.push(c));
        if (!encodeMux(got).equals(encodeMux(frames)) || d.midFrame) throw new Error('mux frames did not round-trip');
      }),
    ),
};

// ---- text: documents people write ------------------------------------------------------

type TextMutation = { kind: 'insert' | 'delete' | 'replace' | 'repeat'; at: number; text: string; n: number };
const textMutations = fc.array(
  fc.record({
    kind: fc.constantFrom<TextMutation['kind']>('insert', 'delete', 'replace', 'repeat'),
    at: fc.nat(),
    // What hurts parsers: structure, quotes, escapes, indentation, control bytes.
    text: fc.oneof(
      fc.constantFrom(
        '[',
        ']',
        '{',
        '}',
        ':',
        ': ',
        '- ',
        ',',
        '"',
        "'",
        '\\',
        '\n',
        '\n  ',
        '#',
        '&a ',
        '*a',
        '!!str ',
        '|',
        '>',
        '%',
        '\t',
        '\0',
        '\uFFFD',
        '---\n',
        '...',
        '=',
        ' = ',
        '[[',
        '{a: ',
        '"\\u',
        '0x',
        '-1',
        '1e999',
        'null',
        '~',
      ),
      fc.string({ unit: 'binary', maxLength: 8 }),
    ),
    n: fc.integer({ min: 1, max: 300 }),
  }),
  { minLength: 1, maxLength: 5 },
);

function mutateText(text: string, ms: TextMutation[]): string {
  let out = text;
  for (const m of ms) {
    const at = out.length === 0 ? 0 : m.at % (out.length + 1);
    if (m.kind === 'insert') out = out.slice(0, at) + m.text + out.slice(at);
    else if (m.kind === 'delete') out = out.slice(0, at) + out.slice(at + m.n);
    else if (m.kind === 'replace') out = out.slice(0, at) + m.text + out.slice(at + m.text.length);
    else out = out.slice(0, at) + m.text.repeat(m.n) + out.slice(at);
  }
  return out;
}

const tokenSoup = (tokens: readonly string[]): fc.Arbitrary<string> =>
  fc
    .array(fc.oneof(fc.constantFrom(...tokens), fc.string({ unit: 'binary', maxLength: 6 })), { maxLength: 200 })
    .map((ts) => ts.join(''));

const textLike = (seeds: readonly string[], tokens: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 400 }),
    tokenSoup(tokens),
    fc.constantFrom(...seeds),
    fc.tuple(fc.constantFrom(...seeds), textMutations).map(([s, ms]) => mutateText(s, ms)),
  );

const repo = (p: string): string => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');

const SCENARIOS = [
  repo('examples/demo.yaml'),
  repo('examples/plugins-ts/cpu-pinner/scenario.yaml'),
  JSON.stringify({
    pods: [
      {
        id: 'p',
        namespace: 'ns',
        labels: { a: 'b' },
        resources: { cpu_shares: 512, hugepage_limits: [{ page_size: '2MB', limit: 1 }] },
      },
    ],
    containers: [
      { id: 'c', pod: 'p', env: ['A=b'], args: ['x'], resources: { cpus: '0-1', unified: { 'memory.high': '1' } } },
    ],
    steps: [
      { 'run-pod': { id: 'q' } },
      { create: { id: 'd', pod: 'q' } },
      { update: { id: 'd', resources: { memory_limit: 5 } } },
      { sleep: 1 },
      { 'remove-pod': 'q' },
    ],
  }),
];
const YAML_TOKENS = [
  'pods:',
  'containers:',
  'steps:',
  '\n',
  '\n  ',
  '- ',
  'id: ',
  'pod: ',
  ': ',
  '[',
  ']',
  '{',
  '}',
  ',',
  '"',
  "'",
  '#',
  '&x ',
  '*x',
  '!!int ',
  '|\n',
  'resources: ',
  'cpu_shares: ',
  '0-3',
  'create: ',
  'remove-pod: ',
  'null',
  'true',
  '1e3',
  '-',
];

const scenarioParser: FuzzTarget = {
  name: 'scenario parser (YAML and JSON)',
  ciRuns: 300,
  property: () =>
    fc.property(textLike(SCENARIOS, YAML_TOKENS), (text) =>
      timed(() => {
        try {
          parseScenario(text, 'fuzz.yaml');
        } catch (err) {
          expectOwnError(err, ScenarioError);
        }
      }),
    ),
};

const EXPECTATIONS = [
  repo('examples/plugins-ts/cpu-pinner/expect.yaml'),
  repo('examples/plugins-ts/cpu-pinner/expect-wrong.yaml'),
];
const EXPECT_TOKENS = [
  'expect:',
  'scenario: ',
  'no-plugin-failures: ',
  'after: ',
  'result: ',
  'env: ',
  'mounts: ',
  'conflict: ',
  'resources: ',
  ...YAML_TOKENS,
];

const expectationParser: FuzzTarget = {
  name: 'expectation file parser',
  ciRuns: 300,
  property: () =>
    fc.property(textLike(EXPECTATIONS, EXPECT_TOKENS), (text) =>
      timed(() => {
        try {
          parseExpectations(text, 'fuzz.yaml', parseScenarioResources);
        } catch (err) {
          // A resources map in an expectation is read by the scenario's reader, with its error.
          expectOwnError(err, ExpectationError, ScenarioError);
        }
      }),
    ),
};

const CONFIGS = [
  repo('examples/node/etc/containerd/config.toml'),
  `[crio.nri]\nenable_nri = true\nnri_listen = "/var/run/nri/nri.sock"\nnri_plugin_dir = "/opt/nri/plugins"\nnri_plugin_request_timeout = "2s"\n`,
  JSON.stringify({
    'nri-support': true,
    'enable-cri-v1': true,
    'plugin-path': '/opt/nri/plugins',
    'plugin-requst-timeout': 2,
  }),
  `version = 3\n[plugins."io.containerd.nri.v1.nri"]\n  plugin_registration_timeout = "1h2m3.5s"\n  plugin_request_timeout = "0"\n  disable_connections = true\n`,
];
const CONFIG_TOKENS = [
  '[',
  ']',
  '[[',
  ']]',
  '"',
  "'",
  '"""',
  '=',
  ' = ',
  '\n',
  '{',
  '}',
  ',',
  ':',
  '#',
  'plugins',
  '."io.containerd.nri.v1.nri"',
  'crio',
  '.nri',
  'disable',
  'true',
  'false',
  '"5s"',
  '1979-05-27T07:32:00Z',
  'nri-support',
  'version',
  '0x1f',
  'inf',
  'nan',
  '\\u00',
];

const runtimeConfigParsers: FuzzTarget = {
  name: 'runtime config parsers (containerd, CRI-O, iSulad) and the conf.d syntax check',
  ciRuns: 300,
  property: () =>
    fc.property(textLike(CONFIGS, CONFIG_TOKENS), (text) =>
      timed(() => {
        // These report what is wrong as findings: they throw nothing at all.
        const reports = [
          lintContainerd('config.toml', text),
          ...lintCrio([{ file: 'crio.conf', text }]),
          lintIsulad('daemon.json', text),
        ];
        for (const f of reports.flatMap((r) => r.findings)) {
          if (/[\r\n]/.test(f.message + f.fix)) throw new Error(`a finding of more than one line: ${f.code}`);
          if (f.message.length > MESSAGE_MAX) throw new Error(`a finding of ${f.message.length} characters: ${f.code}`);
        }
        const syntax = configSyntaxError(text);
        if (syntax !== undefined && (/[\r\n]/.test(syntax) || syntax.length > MESSAGE_MAX))
          throw new Error('a syntax error of more than one bounded line');
      }),
    ),
};

const pluginNameParser: FuzzTarget = {
  name: 'plugin name parser',
  ciRuns: 500,
  property: () =>
    fc.property(
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc
          .tuple(
            fc.string({ unit: 'binary', maxLength: 3 }),
            fc.constantFrom('-', '', '--'),
            fc.string({ unit: 'binary', maxLength: 20 }),
          )
          .map(([a, b, c]) => a + b + c),
        fc
          .tuple(fc.integer({ min: 0, max: 99 }), fc.string({ maxLength: 20 }))
          .map(([i, n]) => `${String(i).padStart(2, '0')}-${n}`),
      ),
      (basename) =>
        timed(() => {
          try {
            const { index, name } = parsePluginName(basename);
            if (`${index}-${name}` !== basename || !/^[0-9]{2}$/.test(index)) throw new Error('did not round-trip');
          } catch (err) {
            expectOwnError(err, PluginNameError);
          }
        }),
    ),
};

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const durationParser: FuzzTarget = {
  name: 'duration parser (flags and config files)',
  ciRuns: 500,
  property: () =>
    fc.property(
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 30 }),
        tokenSoup(['1', '2.5', '.5', '0', '-', '+', 'h', 'm', 's', 'ms', 'us', 'µs', 'ns', 'x', ' ', '.']),
      ),
      fc.array(fc.tuple(fc.integer({ min: 0, max: 500 }), fc.constantFrom(...Object.keys(UNIT_MS))), {
        minLength: 1,
        maxLength: 4,
      }),
      (text, parts) =>
        timed(() => {
          try {
            parseDuration(text, { allowZero: true, allowNegative: true });
          } catch (err) {
            expectOwnError(err, DurationError);
          }
          // A valid Go duration reads as the sum of its parts; past the timer limit a flag's is refused.
          const written = parts.map(([n, u]) => `${n}${u}`).join('');
          const want = parts.reduce((sum, [n, u]) => sum + n * UNIT_MS[u], 0);
          const got = parseDuration(written, { allowZero: true, maxMs: GO_DURATION_MAX_MS });
          if (Math.abs(got - want) > 1e-9 * Math.max(1, want)) throw new Error(`read ${got}, not ${want}`);
          if (want > TIMER_MAX_MS) {
            try {
              parseDuration(written);
              throw new Error(`${written} passed the timer limit`);
            } catch (err) {
              expectOwnError(err, DurationError);
            }
          }
        }),
    ),
};

export const TARGETS: readonly FuzzTarget[] = [
  ttrpcFramesGarbage,
  ttrpcFramesRoundTrip,
  ttrpcMessagesGarbage,
  ttrpcMessagesRoundTrip,
  muxGarbage,
  muxRoundTrip,
  scenarioParser,
  expectationParser,
  runtimeConfigParsers,
  pluginNameParser,
  durationParser,
];
