// Every host test file, imported once mocha's globals exist.
import './activation.test';
import './account.test';
