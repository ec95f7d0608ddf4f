// The secrets sweep against servers that echo what they were sent (the matrix sweeps the
// sandbox's faults, see matrix.test.ts): every credential a client sends comes back in error
// bodies (JSON, an HTML page, a mid-stream SSE error event), in every encoding. Nothing of it may
// reach a log line (all levels), an error's message, stack or causes, or the sentence shown.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { createConsoleClient } from '../../../src/core/console/index';
import { writeCommitMessage } from '../../../src/core/commitMessage/generate';
import { buildCommitPrompt } from '../../../src/core/commitMessage/prompt';
import { failureReason, ocrReader } from '../../../src/core/documents/run';
import { buildEditPrompt, EditSession, streamEdit } from '../../../src/core/edit';
import { createInferenceClient } from '../../../src/core/inference';
import { scanPng } from '../documents/fixtures';
import { AUTH_PATH, captureLogger, fakeJwt, Fixtures, json, jwtClaims, type StubRequest } from '../console/helpers';
import { errorTexts, jwtForms, SecretSet } from './secrets';

const API_KEY = 'sk-sweep-fixture-0123456789abcdef';
const PAT_ID = 'pat-sweep-fixture-id-42';
const PAT_SECRET = 'pat-sweep-fixture-secret/+=xyz';
const JWT = fakeJwt({ ...jwtClaims(3600), sweep: 'fixture-signature-source' });

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** Everything secret the request carried (its bearer token, its PAT body), in the encodings a careless server uses. */
function echoOf(req: StubRequest): string {
  const auth = String(req.headers.authorization ?? '');
  const token = auth.replace(/^Bearer /, '');
  let basic = '';
  try {
    const pat = JSON.parse(req.body) as { id?: string; secret?: string };
    if (pat.id && pat.secret) basic = b64(`${pat.id}:${pat.secret}`);
  } catch {
    // not a JSON body
  }
  const parts = [auth, token, b64(token), encodeURIComponent(token), req.body, b64(req.body), basic];
  return parts.filter(Boolean).join(' | ');
}

type Reply = (req: StubRequest, res: ServerResponse) => void;

const REPLIES: Record<string, Reply> = {
  'a JSON 400 echoing the credentials': (req, res) => json(res, 400, { error: { message: `bad request from ${echoOf(req)}`, type: 'invalid_request_error', param: echoOf(req) } }),
  'a JSON 401 echoing them': (req, res) => json(res, 401, { error: { message: `unknown credential ${echoOf(req)}`, status: '401 Unauthorized' } }),
  'an HTML 502 page echoing them': (req, res) => {
    const page = `<html><body><h1>502 Bad Gateway</h1><pre>${echoOf(req)}</pre></body></html>`;
    res.writeHead(502, { 'content-type': 'text/html', 'x-debug-auth': String(req.headers.authorization ?? '') });
    res.end(page);
  },
  'a 200 body that is not JSON, echoing them': (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"echo": "${echoOf(req)}"`);
  },
};

function secrets(): SecretSet {
  const set = new SecretSet();
  set.add('API key', API_KEY);
  set.add('PAT id', PAT_ID);
  set.add('PAT secret', PAT_SECRET);
  set.add('PAT id:secret', `${PAT_ID}:${PAT_SECRET}`);
  set.add('JWT', JWT, jwtForms);
  return set;
}

function leaksIn(error: unknown, lines: ReadonlyArray<{ level: string; message: string }>): string[] {
  const set = secrets();
  const leaks: string[] = [];
  for (const text of errorTexts(error)) for (const name of set.find(text)) leaks.push(`${name} in the error: ${text.slice(0, 200)}`);
  for (const line of lines) for (const name of set.find(line.message)) leaks.push(`${name} in a ${line.level} line: ${line.message.slice(0, 200)}`);
  return leaks;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return assert.fail('expected a failure');
}

describe('secrets sweep: servers that echo the credentials back', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('the oracle finds every encoding (so a clean result means something)', () => {
    const set = secrets();
    for (const text of [PAT_SECRET, b64(PAT_SECRET), encodeURIComponent(PAT_SECRET), b64(`${PAT_ID}:${PAT_SECRET}`), `Bearer ${JWT}`]) {
      assert.notDeepEqual(set.find(`prefix ${text} suffix`), [], text);
    }
    assert.deepEqual(set.find('an ordinary log line about pat and sk and a JWT'), []);
  });

  for (const [what, reply] of Object.entries(REPLIES)) {
    describe(what, () => {
      it('inference: chat stream, embeddings, rerank, transcription', async () => {
        const stub = await fx.stub(reply);
        const logger = captureLogger();
        const client = createInferenceClient({ baseUrl: `${stub.url}/v1`, apiKey: async () => API_KEY, logger, retry: { attempts: 1 } });
        try {
          const errors = [
            await failure(client.chatStream({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).consume()),
            await failure(client.embed({ model: 'e', input: ['x'] })),
            await failure(client.rerank({ model: 'r', query: 'q', documents: ['d'] })),
            await failure(client.transcribe({ file: new Uint8Array([1, 2, 3]), filename: 'a.wav', contentType: 'audio/wav' })),
          ];
          assert.ok(stub.requests.length >= 4, 'the requests reached the echoing server');
          for (const error of errors) assert.deepEqual(leaksIn(error, logger.lines), []);
        } finally {
          await client.close();
        }
      });

      it('editor features: edit by instruction, commit message, OCR page, ghost text', async () => {
        const stub = await fx.stub(reply);
        const logger = captureLogger();
        const client = createInferenceClient({ baseUrl: `${stub.url}/v1`, apiKey: async () => API_KEY, logger, retry: { attempts: 1 } });
        try {
          const range = ['let a = 1;'];
          const editPrompt = buildEditPrompt({ instruction: 'rename a to b', languageId: 'javascript', relativePath: 'a.js', before: [], range, after: [], startLine: 0, diagnostics: [], instructions: '', maxModelLen: 131_072 });
          const commitPrompt = buildCommitPrompt({ repositoryName: 'r', source: 'staged', diff: 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b', ignored: new Set(), untracked: [], recentMessages: [], maxModelLen: 131_072 });
          const image = { mime: 'image/png', bytes: scanPng({ markdown: 'page' }), width: 480, height: 640 };
          const errors = [
            await failure(streamEdit({ client, model: 'm', prompt: editPrompt, session: new EditSession(range), signal: new AbortController().signal, onEdits: () => undefined })),
            await failure(writeCommitMessage(client, 'm', commitPrompt, () => undefined)),
            await failure(ocrReader(client, { id: 'deepseek-ocr:3b', maxModelLen: 8192 })(image, new AbortController().signal, 1)),
            await failure(client.completeStream({ model: 'c', prompt: 'const a = ' }, { purpose: 'inline' }).consume()),
          ];
          assert.ok(stub.requests.length >= 4, 'the requests reached the echoing server');
          for (const error of errors) assert.deepEqual(leaksIn(error, logger.lines), []);
          // The OCR page's reason is shown in the document view and written into its Markdown.
          assert.deepEqual(secrets().find(failureReason(errors[2])), []);
        } finally {
          await client.close();
        }
      });

      it('console: the PAT exchange, then a list with the JWT', async () => {
        // The exchange succeeds (so a JWT is sent afterwards) only in the list case.
        for (const exchangeEchoes of [true, false]) {
          const stub = await fx.stub((req, res) => {
            if (req.path === AUTH_PATH && !exchangeEchoes) return json(res, 200, { token: JWT });
            reply(req, res);
          });
          const logger = captureLogger();
          const client = fx.track(createConsoleClient({ baseUrl: stub.url, pat: { id: async () => PAT_ID, secret: async () => PAT_SECRET }, logger, retry: { attempts: 1 } }));
          const error = await failure(client.list('virtualMachines'));
          assert.ok(stub.requests.length >= 1);
          if (!exchangeEchoes) assert.ok(stub.requests.some((r) => r.headers.authorization === `Bearer ${JWT}`), 'the JWT was sent and echoed');
          assert.deepEqual(leaksIn(error, logger.lines), []);
        }
      });
    });
  }

  it('a mid-stream SSE error event echoing the key: the partial answer is kept, the key is not', async () => {
    const stub = await fx.stub((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hello ' } }] })}\n\n`);
      res.end(`data: ${JSON.stringify({ error: { message: `upstream rejected ${echoOf(req)}`, type: 'server_error' } })}\n\n`);
    });
    const logger = captureLogger();
    const client = createInferenceClient({ baseUrl: `${stub.url}/v1`, apiKey: async () => API_KEY, logger, retry: { attempts: 1 } });
    try {
      let text = '';
      const error = await failure(client.chatStream({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).consume((e) => {
        if (e.type === 'text') text += e.text;
      }));
      assert.equal(text, 'Hello ');
      assert.deepEqual(leaksIn(error, logger.lines), []);
    } finally {
      await client.close();
    }
  });
});
