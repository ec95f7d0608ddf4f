import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { Redactor } from '../../../src/core/http/redact';
import { createLogger } from '../../../src/platform/logger';

/** A LogOutputChannel that only records lines (the logger uses nothing else). */
function recordingChannel(): { channel: vscode.LogOutputChannel; lines: string[] } {
  const lines: string[] = [];
  const record = (level: string) => (message: string) => lines.push(`${level} ${message}`);
  const channel = { trace: record('trace'), debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  return { channel: channel as unknown as vscode.LogOutputChannel, lines };
}

describe('platform/logger', () => {
  it('masks registered secrets in messages and arguments at every level', () => {
    const redactor = new Redactor();
    redactor.add('sk-unit-FAKE-secret-123456');
    const { channel, lines } = recordingChannel();
    const logger = createLogger(channel, redactor);
    logger.info('key is sk-unit-FAKE-secret-123456');
    logger.error(new Error('failed with sk-unit-FAKE-secret-123456'), { header: 'x sk-unit-FAKE-secret-123456' });
    logger.debug('plain', 'sk-unit-FAKE-secret-123456');
    assert.equal(lines.length, 3);
    for (const line of lines) assert.ok(!line.includes('sk-unit-FAKE-secret-123456'), line);
    assert.equal(lines[0], 'info key is [REDACTED]');
  });

  it('masks bearer tokens it was never told about', () => {
    const { channel, lines } = recordingChannel();
    createLogger(channel, new Redactor()).warn('Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig');
    assert.equal(lines[0], 'warn Authorization: Bearer [REDACTED]');
  });

  it('keeps ordinary text and short values intact', () => {
    const redactor = new Redactor();
    redactor.add('ab');
    const { channel, lines } = recordingChannel();
    createLogger(channel, redactor).info('ab and a cab', 42, { n: 1 });
    assert.equal(lines[0], 'info ab and a cab 42 {"n":1}');
  });
});
