import { FrontMatterReader, parseCustomizationFrontMatter, type CustomizationProblem } from './frontMatter';

/**
 * Skills (`.github/skills/<name>/SKILL.md`, `.claude/skills/<name>/SKILL.md`): folders of
 * instructions and files for one kind of task. Only each skill's `name` and `description` go into
 * the system message; the model reads the rest on demand with `stratus_readSkill`, so a workspace
 * with many skills costs a line each.
 */
export interface Skill {
  readonly name: string;
  readonly description: string;
  readonly problems: readonly CustomizationProblem[];
}

export const SKILL_FILE = 'SKILL.md';
export const SKILL_FOLDERS = ['.github/skills', '.claude/skills'] as const;
export const SKILL_KEYS = ['name', 'description', 'license', 'allowed-tools', 'metadata', 'compatibility'] as const;
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SKILL_DESCRIPTION = 1024;
/** At most this many skills are listed in the system message (the rest are named in the log). */
export const MAX_LISTED_SKILLS = 100;

/** A skill's SKILL.md, in the folder `folder`; undefined when it has no usable name or description. */
export function parseSkill(text: string, folder: string): { skill: Skill | undefined; problems: CustomizationProblem[] } {
  const parsed = parseCustomizationFrontMatter(text);
  const read = new FrontMatterReader(parsed, SKILL_KEYS);
  const named = read.text('name', 64);
  const description = read.text('description', MAX_SKILL_DESCRIPTION);
  if (!parsed.present) read.add({ kind: 'missing', key: 'name', line: 0, severity: 'error' });
  else if (named === undefined) read.add({ kind: 'missing', key: 'name', line: 0, severity: 'error' });
  if (parsed.present && description === undefined) read.add({ kind: 'missing', key: 'description', line: 0, severity: 'error' });
  if (named !== undefined && !NAME.test(named)) read.add({ kind: 'badSkillName', name: named, line: read.line('name'), severity: 'error' });
  else if (named !== undefined && named !== folder) read.add({ kind: 'nameMismatch', name: named, folder, line: read.line('name'), severity: 'warning' });
  const problems = read.problems;
  if (named === undefined || !NAME.test(named) || description === undefined) return { skill: undefined, problems };
  return { skill: { name: named, description, problems }, problems };
}

/** The system-message section listing the skills (names and descriptions only); '' with none. */
export function skillsSection(skills: readonly Pick<Skill, 'name' | 'description'>[], readTool: string): string {
  if (skills.length === 0) return '';
  const lines = skills.slice(0, MAX_LISTED_SKILLS).map((s) => `- ${s.name}: ${s.description.replace(/\s+/g, ' ')}`);
  return [
    '## Skills of this workspace',
    `Each skill is a folder of instructions (and files) for one kind of task. When the task matches a skill's description, first call ${readTool} with its name to read its instructions, then, if they mention other files of the skill, call ${readTool} with the skill's name and that file's path.`,
    ...lines,
  ].join('\n');
}

/**
 * A path inside a skill's folder as its segments, or why it is refused: relative, forward slashes,
 * no `..`, no empty or `.` segments, no drive or backslash.
 */
export function skillFileSegments(path: string): { ok: true; segments: string[] } | { ok: false; reason: string } {
  const trimmed = path.trim().replace(/^\.\//, '');
  if (trimmed === '') return { ok: true, segments: [SKILL_FILE] };
  if (trimmed.includes('\\') || trimmed.includes('\0')) return { ok: false, reason: 'use forward slashes, relative to the skill\'s folder' };
  if (trimmed.startsWith('/') || /^[A-Za-z]:/.test(trimmed)) return { ok: false, reason: 'the path must be relative to the skill\'s folder' };
  const segments = trimmed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) return { ok: false, reason: 'the path may not leave the skill\'s folder (..)' };
  return segments.length > 0 ? { ok: true, segments } : { ok: true, segments: [SKILL_FILE] };
}
