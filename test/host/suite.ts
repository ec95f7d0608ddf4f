// Every host test file, imported once mocha's globals exist.
import './activation.test';
import './account.test';
import './chat.test';
import './completion.test';
import './chatHandler.test';
import './resources.test';
import './network.test';
import './search.test';
import './confinement.test';
import './usage.test';
import './tools.test';
import './transcription.test';
import './onboarding.test';
import './l10n.test';
