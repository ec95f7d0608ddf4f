/** How a run of Edit with Instruction went, when its stream ended (the command's return value). */
export interface EditOutcome {
  /**
   * review: hunks wait for Accept / Reject; unchanged: the model changed nothing; cancelled: stopped
   * while streaming (Reject All, Esc); abandoned: the document changed inside the range; refused:
   * bad arguments or a range too large; failed: the request failed; notStarted: no editor, or dismissed.
   */
  readonly status: 'review' | 'unchanged' | 'cancelled' | 'abandoned' | 'refused' | 'failed' | 'notStarted';
  readonly hunks: number;
  readonly message?: string;
}
