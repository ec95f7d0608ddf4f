import { DEMO_PAT, EXPIRED_PAT, READ_ONLY_PAT } from './credentials';
import type { SandboxProfile } from './types';

/** Human-readable help: printed by the CLI after its JSON line, served at GET / and GET /__sandbox/help. */
export function helpText(profile: SandboxProfile, base: string): string {
  return `Stratus sandbox server (profile: ${profile}) ${base}

INFERENCE API (Authorization: Bearer <apiKey>)  base ${base}/v1
  GET  /v1/models                  catalogue (every model-record field); GET /v1/models/{id}
  POST /v1/chat/completions        chat, stream with "stream": true (SSE, then data: [DONE])
  POST /v1/completions             same body and response as chat
  POST /v1/embeddings              input: string | string[] (token ids -> 400); encoding_format float|base64
  POST /v1/rerank, /v2/rerank      {model, query, documents, top_n?, return_documents?}
  POST /v1/audio/transcriptions    multipart: file (wav/mp3/m4a by content), model?, language?, task?, initial_prompt?, response_format=json only
  POST /v1/files                   multipart: purpose=batch, file=<name>.jsonl -> {id: "file-..."}
  POST /v1/batches                 {input_file_id, endpoint, completion_window: "24h"}; GET /v1/batches?limit=N
  GET  /v1/batches/{id}            validating -> in_progress (2 steps) -> finalizing -> completed, one step = batchStepMs
                                   of the sandbox clock; bad lines: failed + errors; refused bodies: per-line errors
  POST /v1/batches/{id}/cancel     GET /v1/files/{id}/content: results JSONL, not in input order, deleted after 7 days
  Models: gpt-oss:120b (chat, tools), qwen3:30b (chat, tools, reasoning), qwen3-coder:30b (chat, tools, 1M context),
          qwen3-vl:8b (vision),
          mistral-small3.2:24b (vision, tools), smollm2:135m (chat, 512-token context),
          deepseek-ocr:3b (OCR, vision), bge-m3:567m / granite-embedding:278m (embeddings),
          qwen3-reranker:4b (rerank), whisper-large-v3 (speech)
  Families (familyModels.ts): gpt-oss:20b-harmony (harmony channels in content; thinks longer at
          reasoning_effort high, shorter at low), qwen2.5:7b / mistral-nemo:12b / llama3.1:8b (tool
          calls printed as text), qwen3:8b (reasoning_content deltas; none with
          chat_template_kwargs.enable_thinking false)
  Tokens are estimated as ceil(chars/4); prompt = sum(4 + ceil(chars/4) per message) + 85 per image + tools JSON.
  Rate limits on output tokens per hour/day of the tier; X-RateLimit-Limit/Remaining/Reset-Requests
  on every response (Reset: ${profile === 'production' ? 'Unix seconds' : 'seconds from now'}); 429 when exhausted.

SCRIPTED MODEL (first rule that matches)
  0. tools offered, tool_choice auto, "plan:" in the last user message: scripted rounds, e.g.
     plan: read_file {"path":"a.txt"} & list_files ; run_task {"note":"{{result}}"} *2
     (";" rounds, "&" parallel calls, {{result}} = previous round's results, "@x" id call_x,
     "*N" repeat, "<empty>" empty name), then one "Tool result (<name>): <content>" line per result
  1. conversation ends with tool message(s): "Tool result (<name>): <content>" per result
  2. tools offered, tool_choice not "none": forced tool, or (auto) every tool named in the last user
     message -> tool_calls; arguments = the {...} JSON in the message, else required params filled
     (string: text after the tool name; number: 1; boolean: true; array: []; object: {})
  3. a user message containing <CURSOR> (code completion): a deterministic continuation of the text
     before the marker (README.md), one token per delta, logged at GET /__sandbox/completions
     a system message starting "You review code changes" (review): a \`\`\`json array of findings from
     the diff's added lines (eval( -> security error, TODO -> info, REVIEW-FAR / REVIEW-ELSEWHERE /
     REVIEW-BAD / REVIEW-CHATTY: off-diff line, other file, bad item, chatter; inference/reviewScript.ts)
  4. "markdown demo" -> Markdown with a fenced code block; "long N" -> N deltas "1 " .. "N";
     otherwise "Echo (<model>): <last user text>" (+ "[image k: <type>, <bytes> bytes]" lines).
     Reasoning model + the word "think" -> a <think>...</think> block first.
  5. replies longer than max_tokens are cut, finish_reason "length".

CONSOLE API (Authorization: Bearer <JWT>)  base ${base}
  POST /api/iam/v2/auth/personal_access_token {"id","secret"} -> ${profile === 'production' ? 'raw JWT (text/plain)' : '{"token": "<JWT>"}'}
       demo PAT (read-write): ${DEMO_PAT.id} / ${DEMO_PAT.secret}
       read-only PAT (writes -> 403): ${READ_ONLY_PAT.id} / ${READ_ONLY_PAT.secret}
       expired PAT (-> 401): ${EXPIRED_PAT.id} / ${EXPIRED_PAT.secret}
  GET|POST /api/compute/v1/virtual-machines          GET|PATCH|DELETE /api/compute/v1/virtual-machines/{id}
       PATCH body: name, cpu, numCoresPerSocket, memory (bytes), powerAction "on"|"off"
  GET|POST /api/compute/v1/vcenters/virtual_machines  PATCH .../virtual_machines {id, ...changes}
       PATCH .../virtual_machines/power {id, powerAction}   GET|DELETE .../virtual_machines/{id}
  GET|POST /api/iam/v1/users   GET /api/iam/v1/users/{id}   GET /api/iam/v2/users?companyId=   POST /api/iam/v2/users
  GET /api/iam/v2/roles        GET|POST /api/network/v1/virtual-networks
  GET /api/activity/v1/activities   GET /api/activity/v1/activities/{id}
  Lists: ${profile === 'production' ? 'bare arrays, at most 1000 items, 206 + Content-Range when partial' : '{"items": [...], "total": N}, ?limit=1..1000 (100) &offset= &name= (contains)'}
  Writes: 201 + Location (${profile === 'production' ? 'raw activity id' : '/api/activity/v1/activities/<id>'}); activity waiting -> running -> completed|failed
  Per-IP limits: 25 successful r/s per module, 5 r/s on the PAT route -> 429.

CONTROL (${base}/__sandbox, JSON bodies, no auth)
  GET  /__sandbox/help | /__sandbox/state      GET|DELETE /__sandbox/requests[?pathPrefix=]
  GET|DELETE /__sandbox/completions    completion streams: {seq, model, tokensPlanned, tokensStreamed, abortedByClient, complete}
  POST /__sandbox/reset
  POST /__sandbox/latency              {ms, chunkDelayMs?, pathPrefix?}
  POST /__sandbox/stream-fault         {kind: stall|drop|malformed|truncate, afterChunks, count?, pathPrefix?}
  POST /__sandbox/body-fault           {kind: stall|drop|truncate|malformed, count?, pathPrefix?}  (non-SSE bodies)
  POST /__sandbox/burst                {status: 401|403|429|500|502|503|504, count, retryAfterSeconds?, pathPrefix?, html?}
  POST /__sandbox/reset-after-apply    {method?, pathPrefix?, count?}  the write takes effect, the socket is reset
  POST /__sandbox/expire-tokens
  POST /__sandbox/activities/fail      {next?, all?, reason?}
  POST /__sandbox/activities/slow      {factor}
  POST /__sandbox/activities/first-read-404 {enabled}
  POST /__sandbox/seed                 {vms?, users?, networks?}
  POST /__sandbox/deprecate            {pathPrefix, sunset?, link?, deprecation?}
  POST /__sandbox/tier                 {outputTokensPerHour, outputTokensPerDay}
  POST /__sandbox/consume              {outputTokens}
  POST /__sandbox/clock                {advanceMs}
  POST /__sandbox/recorded-strings     {maxChars}   (longest string kept in recorded bodies; default 200)
  POST /__sandbox/batches              {available?: "available"|"not_found"|"forbidden", hold?: bool, stepMs?: N}
                                       (404/403 on every batch route; held batches expire after 24 h)
  POST /__sandbox/gateway              {header, value} | {off: true}   (gateway mode: API requests without the header get 401, a wrong value 403)
  POST /__sandbox/console-rate-limits  {perModule, auth} | {enabled: false}
  POST /__sandbox/console-paths        {mode: "all" | "production"}  production: only the production console paths (contract paths 404)
  POST /__sandbox/console-unrouted     {answer: "notFound" | "methodNotAllowed" | "gone" | "redirect" | "spa"}  what a console path no route serves answers (404, 405, 410, a 302 to a sign-in page, a 200 HTML app page)
`;
}
