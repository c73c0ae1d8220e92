// Drives runledger proxy with the official clients, @anthropic-ai/sdk and
// openai, as a harness would: ANTHROPIC_BASE_URL and OPENAI_BASE_URL point
// at the proxy. Prints one JSON object of results; proxy_sdk_test.go checks
// them against what its recording upstream received and sent.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';

const anthropic = new Anthropic({ apiKey: process.env.TEST_ANTHROPIC_KEY, maxRetries: 2 });
const openai = new OpenAI({ apiKey: process.env.TEST_OPENAI_KEY, maxRetries: 2 });

const failed = (test) => '============ test session starts ============\n' +
  `t.py::${test} FAILED\n`.repeat(40) + '============ 40 failed in 0.1s ============\n';
const passed = '============ 40 passed in 0.1s ============\n';
// What each tool call "printed", turn by turn.
const outputs = [failed('test_a'), 'def test_a():\n    assert f() == 1\n', failed('test_a'), passed];

const results = {};
const raws = [];

// A Messages tool loop: the model calls bash, the harness answers with the
// next output, the last tool result carries the cache breakpoint.
async function anthropicLoop(conv, { parallelLast = false, pauseBeforeLast = 0, stream = false } = {}) {
  const messages = [{ role: 'user', content: 'Make the tests pass.' }];
  const headers = { 'x-conv': conv };
  for (let turn = 0; turn < outputs.length; turn++) {
    if (turn === outputs.length - 1 && pauseBeforeLast) await new Promise((r) => setTimeout(r, pauseBeforeLast));
    const params = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages,
      tools: [{ name: 'bash', description: 'run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }] };
    const parallel = parallelLast && turn === outputs.length - 2;
    const h = { ...headers, 'x-test-tools': parallel ? '2' : '1' };
    let msg;
    if (stream) {
      msg = await anthropic.messages.stream(params, { headers: h }).finalMessage();
    } else {
      msg = await anthropic.messages.create(params, { headers: h });
    }
    const uses = msg.content.filter((b) => b.type === 'tool_use');
    messages.push({ role: 'assistant', content: msg.content });
    const results = uses.map((u, i) => ({ type: 'tool_result', tool_use_id: u.id, content: outputs[Math.min(turn + i, outputs.length - 1)] }));
    if (parallel) turn++; // two outputs this turn
    results[results.length - 1].cache_control = { type: 'ephemeral' };
    for (const m of messages) for (const b of (Array.isArray(m.content) ? m.content : [])) delete b.cache_control;
    messages.push({ role: 'user', content: results });
  }
  const last = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages }, { headers });
  return { turns: messages.length, stop: last.stop_reason };
}

// A Chat Completions tool loop: tool outputs are role "tool" messages.
async function chatLoop(conv) {
  const messages = [{ role: 'user', content: 'Make the tests pass.' }];
  for (const out of outputs) {
    const c = await openai.chat.completions.create({ model: 'gpt-4.1', messages, tools: [{ type: 'function', function: { name: 'bash', parameters: { type: 'object' } } }] }, { headers: { 'x-conv': conv } });
    const m = c.choices[0].message;
    messages.push(m);
    for (const call of m.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: out });
  }
  return { turns: messages.length };
}

// A Responses tool loop: function_call items, function_call_output items.
async function responsesLoop(conv) {
  const input = [{ role: 'user', content: 'Make the tests pass.' }];
  for (const out of outputs) {
    const r = await openai.responses.create({ model: 'gpt-5', input, store: false }, { headers: { 'x-conv': conv } });
    for (const item of r.output) {
      input.push(item);
      if (item.type === 'function_call') input.push({ type: 'function_call_output', call_id: item.call_id, output: out });
    }
  }
  return { turns: input.length };
}

async function rawText(promise) {
  const resp = await promise.asResponse();
  const text = await resp.text();
  raws.push(text);
  return { status: resp.status, contentType: resp.headers.get('content-type'), requestId: resp.headers.get('request-id') };
}

async function caught(fn) {
  try {
    return { ok: await fn() };
  } catch (e) {
    return { error: e.constructor.name, status: e.status ?? null, message: String(e.message).slice(0, 500),
      retryAfter: e.headers?.get?.('retry-after') ?? null };
  }
}

const base = { model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };

results.anthropic_loop = await caught(() => anthropicLoop('anthropic-loop'));
results.anthropic_parallel = await caught(() => anthropicLoop('anthropic-parallel', { parallelLast: true }));
results.anthropic_stream_loop = await caught(() => anthropicLoop('anthropic-stream', { stream: true }));
results.anthropic_cold = await caught(() => anthropicLoop('anthropic-cold', { pauseBeforeLast: Number(process.env.TEST_COLD_PAUSE_MS) }));
results.chat_loop = await caught(() => chatLoop('chat-loop'));
results.responses_loop = await caught(() => responsesLoop('responses-loop'));
results.concurrent = await caught(() => Promise.all([0, 1, 2, 3].map((i) => anthropicLoop(`concurrent-${i}`))));

results.raw_anthropic = await caught(() => rawText(anthropic.messages.create(base, { headers: { 'x-conv': 'raw' } })));
results.raw_anthropic_stream = await caught(() => rawText(anthropic.messages.create({ ...base, stream: true }, { headers: { 'x-conv': 'raw' } })));
results.raw_chat_stream = await caught(() => rawText(openai.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }], stream: true }, { headers: { 'x-conv': 'raw' } })));
results.raw_responses_stream = await caught(() => rawText(openai.responses.create({ model: 'gpt-5', input: 'hi', stream: true }, { headers: { 'x-conv': 'raw' } })));

results.retry_429 = await caught(() => anthropic.messages.create(base, { headers: { 'x-test-fault': '429once', 'x-conv': 'faults' } }).then((m) => m.id));
results.error_429 = await caught(() => anthropic.messages.create(base, { maxRetries: 0, headers: { 'x-test-fault': '429', 'x-conv': 'faults' } }));
results.error_500 = await caught(() => openai.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] }, { maxRetries: 0, headers: { 'x-test-fault': '500', 'x-conv': 'faults' } }));
results.timeout = await caught(() => anthropic.messages.create(base, { maxRetries: 0, timeout: 500, headers: { 'x-test-fault': 'hang', 'x-conv': 'faults' } }));

// A client that walks away mid-stream.
results.abort_midstream = await caught(async () => {
  const stream = anthropic.messages.stream(base, { headers: { 'x-test-fault': 'midstream', 'x-conv': 'faults' } });
  let events = 0;
  for await (const ev of stream) {
    events++;
    if (ev.type === 'message_start') stream.abort();
  }
  return events;
});

// A 10 MB tool output, superseded by a later run in the same request.
results.ten_mb = await caught(async () => {
  const huge = failed('test_big').replace('============ 40 failed', 'E   assert 1 == 2 and some context\n'.repeat(10 * 1024 * 1024 / 35) + '============ 40 failed');
  const first = { role: 'user', content: 'Make the tests pass.' };
  const use = (id) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'bash', input: { command: 'pytest' } }] });
  await anthropic.messages.create({ ...base, messages: [first, use('toolu_big_0'), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_big_0', content: 'ls\n' }] }] }, { headers: { 'x-conv': 'ten-mb' } });
  const messages = [first, use('toolu_big_0'), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_big_0', content: 'ls\n' }] },
    use('toolu_big_1'), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_big_1', content: huge }] },
    use('toolu_big_2'), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_big_2', content: passed, cache_control: { type: 'ephemeral' } }] }];
  const m = await anthropic.messages.create({ ...base, messages }, { headers: { 'x-conv': 'ten-mb' } });
  return { sent: JSON.stringify(messages).length, id: m.id };
});

results.raws = raws;
process.stdout.write(JSON.stringify(results));
