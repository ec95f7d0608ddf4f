/** Customization files: prompt files, custom agents and skills (issue 35), parsed without `vscode`. */
export { parseCustomizationFrontMatter, parseScalar, FrontMatterReader, type CustomizationProblem, type FrontMatterEntry, type FrontMatterItem, type FrontMatterValue, type ParsedFrontMatter } from './frontMatter';
export { parsePromptFile, promptNameOf, PROMPT_FILE_SUFFIX, PROMPT_KEYS, type PromptFile } from './promptFile';
export { parseAgentFile, agentNameOf, AGENT_SUFFIXES, AGENT_KEYS, type AgentFile, type Handoff } from './agentFile';
export { parseSkill, skillsSection, skillFileSegments, SKILL_FILE, SKILL_FOLDERS, SKILL_KEYS, MAX_SKILL_DESCRIPTION, MAX_LISTED_SKILLS, type Skill, type SkillsSection } from './skills';
export { promptInputs, unknownVariables, inputArguments, resolveVariables, CONTEXT_VARIABLES, type ContextVariable, type PromptInput, type VariableValues } from './variables';
export { fileLinks, type FileLink } from './links';
export { resolveToolNames, TOOL_ALIASES } from './toolAliases';
export { ParseCache } from './parseCache';
export { filesOption, type FilesOption } from './filesOption';
