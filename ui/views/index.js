// The views of the shell, by URL. A new view plugs in with one line here; `nav` puts it in the top
// navigation.
import { Dashboard } from './dashboard.js';
import { DatasetDiffView, DatasetVersionView, DatasetView, DatasetsView } from './datasets.js';
import { DiffView } from './diff.js';
import { ExperimentView } from './experiment.js';
import { KeysView } from './keys.js';
import { LlmConnectionsView } from './llm_connections.js';
import { ProjectView } from './project.js';
import { ReviewView } from './review.js';
import { RunView } from './run.js';
import { TraceView, TracesView } from './traces.js';

export const views = [
  { path: '/', view: Dashboard, title: 'Dashboard', nav: 'Dashboard' },
  { path: '/projects/:projectName', view: ProjectView, title: 'Project' },
  { path: '/experiments/:experimentId', view: ExperimentView, title: 'Experiment' },
  { path: '/experiments/:experimentId/diff', view: DiffView, title: 'Diff' },
  { path: '/runs/:runId', view: RunView, title: 'Run' },
  { path: '/datasets', view: DatasetsView, title: 'Datasets', nav: 'Datasets' },
  { path: '/datasets/:name', view: DatasetView, title: 'Dataset' },
  { path: '/datasets/:name/versions/:version', view: DatasetVersionView, title: 'Dataset version' },
  { path: '/datasets/:name/diff', view: DatasetDiffView, title: 'Dataset diff' },
  { path: '/review', view: ReviewView, title: 'Review queue', nav: 'Review' },
  { path: '/traces', view: TracesView, title: 'Traces', nav: 'Traces' },
  { path: '/traces/:traceId', view: TraceView, title: 'Trace' },
  { path: '/llm-connections', view: LlmConnectionsView, title: 'LLM connections', nav: 'LLM connections' },
  { path: '/keys', view: KeysView, title: 'API keys', nav: 'API keys' },
];
