import * as vscode from 'vscode';
import { decideTrust, type TrustAction, type TrustVerdict } from '../core/workspace/trust';

/**
 * The one trust gate: every tool and feature asks it "may this run, read or write here?"
 * (src/core/workspace/trust.ts decides), never `vscode.workspace.isTrusted` itself. Built once in
 * extension.ts and handed to features through `deps.trust`; fires `onDidChange` when the person
 * grants trust, so caches of what Restricted Mode left out start over.
 *
 * Host tests run code-server with `--disable-workspace-trust` (always trusted), so in
 * ExtensionMode.Test the gate can be faked untrusted (`fake`); while faked, `confirm` records the
 * request and answers "no" instead of opening a dialog, which keeps those tests deterministic.
 */

/** A request the gate received while faked (tests). */
export interface TrustRecord {
  /** Who asked: a command id or a tool name. */
  readonly source: string;
  readonly action: TrustAction;
  readonly verdict: TrustVerdict['kind'];
}

export interface TrustFake extends vscode.Disposable {
  readonly records: readonly TrustRecord[];
}

export interface ConfirmRequest {
  readonly source: string;
  readonly action: TrustAction;
  /** The modal's question. */
  readonly message: string;
  readonly detail?: string;
  /** The button that goes ahead. */
  readonly button: string;
}

export class WorkspaceTrustGate implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the answers may have changed: trust granted (or a test's fake set or removed). */
  readonly onDidChange = this.changed.event;
  private readonly grant: vscode.Disposable;
  private faked: { trusted: boolean; records: TrustRecord[] } | undefined;

  constructor(private readonly workspaceTrusted: () => boolean = () => vscode.workspace.isTrusted) {
    this.grant = vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire());
  }

  get trusted(): boolean {
    return this.faked?.trusted ?? this.workspaceTrusted();
  }

  decide(action: TrustAction): TrustVerdict {
    return decideTrust(action, this.trusted);
  }

  /** True when the action goes ahead without a Restricted Mode confirmation or skip. */
  allows(action: TrustAction): boolean {
    return this.decide(action).kind === 'allow';
  }

  /** The line a tool's confirmation starts with in Restricted Mode (Markdown); '' when allowed. */
  confirmationNote(action: TrustAction): string {
    if (this.allows(action)) return '';
    return `⚠️ **${vscode.l10n.t('Restricted Mode: this workspace is not trusted, so Stratus asks before every command, task and change, and approves none by itself.')}**`;
  }

  /** Records a tool's confirmation while faked (the host test checks every side-effect tool asked). */
  noteConfirmation(source: string, action: TrustAction): void {
    this.faked?.records.push({ source, action, verdict: this.decide(action).kind });
  }

  /**
   * For an action the person started (a command): true when allowed, else a modal asks. While
   * faked, records the request and answers false without a dialog.
   */
  async confirm(request: ConfirmRequest): Promise<boolean> {
    const verdict = this.decide(request.action);
    if (this.faked) {
      this.faked.records.push({ source: request.source, action: request.action, verdict: verdict.kind });
      return verdict.kind === 'allow';
    }
    if (verdict.kind === 'allow') return true;
    if (verdict.kind === 'skip') return false;
    const answer = await vscode.window.showWarningMessage(request.message, { modal: true, ...(request.detail ? { detail: request.detail } : {}) }, request.button);
    return answer === request.button;
  }

  /** Tests only (ExtensionMode.Test): answers as if the workspace were (un)trusted until disposed. */
  fake(trusted: boolean): TrustFake {
    const state = { trusted, records: [] as TrustRecord[] };
    this.faked = state;
    this.changed.fire();
    return {
      records: state.records,
      dispose: () => {
        if (this.faked !== state) return;
        this.faked = undefined;
        this.changed.fire();
      },
    };
  }

  dispose(): void {
    this.grant.dispose();
    this.changed.dispose();
  }
}
