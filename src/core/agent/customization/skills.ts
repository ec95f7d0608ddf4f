import { estimateTextTokens } from '../../inference/models/tokens';
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

export interface SkillsSection {
  /** The system-message section; '' with no skill (or no room for one). */
  readonly text: string;
  /** The skills not listed (past MAX_LISTED_SKILLS or the token budget), for the log. */
  readonly leftOut: readonly string[];
}

/** Descriptions are cut to these lengths, in turn, before skills are left out. */
const DESCRIPTION_CUTS = [MAX_SKILL_DESCRIPTION, 200, 80] as const;

function skillLine(skill: Pick<Skill, 'name' | 'description'>, maxDescription: number): string {
  const description = skill.description.replace(/\s+/g, ' ').trim();
  return `- ${skill.name}: ${description.length > maxDescription ? `${description.slice(0, maxDescription - 1).trimEnd()}…` : description}`;
}

/**
 * The system-message section listing the skills (names and descriptions only), within `maxTokens`
 * (what the instructions left of their share of the context): descriptions are shortened first,
 * then skills are left out, with a note saying how many.
 */
export function skillsSection(skills: readonly Pick<Skill, 'name' | 'description'>[], readTool: string, maxTokens = Number.POSITIVE_INFINITY): SkillsSection {
  if (skills.length === 0) return { text: '', leftOut: [] };
  const listable = skills.slice(0, MAX_LISTED_SKILLS);
  const header = [
    '## Skills of this workspace',
    `Each skill is a folder of instructions (and files) for one kind of task. When the task matches a skill's description, first call ${readTool} with its name to read its instructions, then, if they mention other files of the skill, call ${readTool} with the skill's name and that file's path.`,
  ];
  const fits = (lines: readonly string[]): boolean => estimateTextTokens(lines.join('\n')) <= maxTokens;
  const note = (count: number): string => `(${count} more skill(s) are not listed, to fit the model's context.)`;
  for (const cut of DESCRIPTION_CUTS) {
    const lines = [...header, ...listable.map((s) => skillLine(s, cut))];
    if (skills.length > listable.length) lines.push(note(skills.length - listable.length));
    if (fits(lines)) return { text: lines.join('\n'), leftOut: skills.slice(listable.length).map((s) => s.name) };
  }
  // As many as fit with the shortest descriptions, and the note.
  const cut = DESCRIPTION_CUTS[DESCRIPTION_CUTS.length - 1] ?? 80;
  const lines = [...header];
  let listed = 0;
  for (const skill of listable) {
    const next = skillLine(skill, cut);
    if (!fits([...lines, next, note(skills.length - listed - 1)])) break;
    lines.push(next);
    listed++;
  }
  const leftOut = skills.slice(listed).map((s) => s.name);
  if (listed === 0) return { text: '', leftOut };
  return { text: [...lines, note(leftOut.length)].join('\n'), leftOut };
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
