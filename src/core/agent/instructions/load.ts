import { discoverInstructions, type DiscoverOptions, type InstructionsReader } from './discover';
import { buildInstructionsSection, type InstructionsSection } from './sections';

export interface LoadedInstructions extends InstructionsSection {
  /** Repository instructions were not read (untrusted workspace): the chat says so once. */
  readonly untrustedSkipped: boolean;
}

/** Discovery and the capped section in one call: what the chat participant needs per turn. */
export async function loadInstructions(reader: InstructionsReader, options: DiscoverOptions, maxModelLen: number): Promise<LoadedInstructions> {
  const { sources, untrustedSkipped } = await discoverInstructions(reader, options);
  return { ...buildInstructionsSection(sources, maxModelLen), untrustedSkipped };
}
