import * as vscode from 'vscode';
import { skillFileSegments } from '../../core/agent/customization';
import type { CustomizationFiles } from '../../services/customizations';
import { maxFileBytes, textResult, ToolFailure } from '../../platform/toolWorkspace';

interface ReadSkillInput { name: string; path?: string }

/** A skill's instructions are a few pages; its other files are read one by one. */
const MAX_SKILL_FILE_BYTES = 100_000;

/**
 * `stratus_readSkill`: reads a skill's SKILL.md (and the list of its other files) or one file of
 * its folder, on demand (the system message only names the skills). Read only, through the
 * confined reader, size-capped, never outside the skill's folder, and not at all in Restricted Mode.
 */
export class ReadSkillTool implements vscode.LanguageModelTool<ReadSkillInput> {
  constructor(private readonly files: Pick<CustomizationFiles, 'readSkillFile'>) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadSkillInput>): vscode.PreparedToolInvocation {
    const path = typeof options.input.path === 'string' && options.input.path.trim() !== '' ? options.input.path : 'SKILL.md';
    return { invocationMessage: vscode.l10n.t('Reading the skill {0} ({1})', String(options.input.name), path) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ReadSkillInput>): Promise<vscode.LanguageModelToolResult> {
    const name = typeof options.input.name === 'string' ? options.input.name.trim() : '';
    if (name === '') throw new ToolFailure('Give the skill\'s name, as listed under "Skills of this workspace".');
    const segments = skillFileSegments(typeof options.input.path === 'string' ? options.input.path : '');
    if (!segments.ok) throw new ToolFailure(`"${String(options.input.path)}" cannot be read: ${segments.reason}.`);
    const cap = Math.min(maxFileBytes(), MAX_SKILL_FILE_BYTES);
    const read = await this.files.readSkillFile(name, segments.segments, cap);
    const shown = segments.segments.join('/');
    if (!read.ok) {
      switch (read.reason) {
        case 'untrusted':
          throw new ToolFailure('Skills are not read in Restricted Mode: this workspace is not trusted.');
        case 'unknown':
          throw new ToolFailure(`There is no skill named "${name}". Skills: ${read.skills && read.skills.length > 0 ? read.skills.join(', ') : 'none'}.`);
        case 'gone':
          throw new ToolFailure(`The skill "${name}" has no file "${shown}".`);
        case 'outside':
          throw new ToolFailure(`"${shown}" leaves the skill's folder (through a symbolic link); only files inside it can be read.`);
        case 'not_file':
          throw new ToolFailure(`"${shown}" is not a file of the skill "${name}".`);
        case 'binary':
          throw new ToolFailure(`"${shown}" is a binary file; only text files of a skill can be read.`);
        default:
          throw new ToolFailure(`"${shown}" of the skill "${name}" cannot be read.`);
      }
    }
    const parts = [`Skill: ${name} (${shown})`, read.text];
    if (read.truncated) parts.push(`[Cut at ${cap.toLocaleString('en')} bytes.]`);
    if (read.files.length > 0) parts.push(`Other files of this skill (read one with stratus_readSkill, name "${name}" and its path):\n${read.files.join('\n')}`);
    return textResult(parts.join('\n'));
  }
}
