// The views of the shell, by URL. A later view (datasets, review queue, traces, LLM connections)
// plugs in with one line here; `nav` puts it in the top navigation.
import { Dashboard } from './dashboard.js';
import { DiffView } from './diff.js';
import { ExperimentView } from './experiment.js';
import { KeysView } from './keys.js';
import { ProjectView } from './project.js';
import { RunView } from './run.js';

export const views = [
  { path: '/', view: Dashboard, title: 'Dashboard', nav: 'Dashboard' },
  { path: '/projects/:projectName', view: ProjectView, title: 'Project' },
  { path: '/experiments/:experimentId', view: ExperimentView, title: 'Experiment' },
  { path: '/experiments/:experimentId/diff', view: DiffView, title: 'Diff' },
  { path: '/runs/:runId', view: RunView, title: 'Run' },
  { path: '/keys', view: KeysView, title: 'API keys', nav: 'API keys' },
];
