// The dashboard: every project, the newest runs across them, and the gates that failed lately.
import { api } from '../lib/api.js';
import { html, useContext, useEffect, useState } from '../lib/preact.js';
import { integer, percent, signedPoints, when } from '../lib/format.js';
import { Badge, Empty, ErrorNote, Loading, PageHeader } from '../components/common.js';
import { RefreshContext, useApi } from '../components/use_api.js';

// The newest runs of the first projects, from each experiment's latestRun (one call per project).
function useLatestActivity(projects) {
  const refresh = useContext(RefreshContext);
  const [activity, setActivity] = useState(null);
  useEffect(() => {
    if (!projects) return;
    const newest = [...projects].sort((a, b) => String(b.latestActivity ?? '').localeCompare(String(a.latestActivity ?? ''))).slice(0, 12);
    Promise.all(newest.map((project) => api(`/projects/${encodeURIComponent(project.name)}/experiments`).then(
      (experiments) => experiments.filter((e) => e.latestRun).map((e) => ({ project: project.name, experiment: e })),
      () => [],
    ))).then((lists) => setActivity(lists.flat()
      .sort((a, b) => String(b.experiment.latestRun.startedAt).localeCompare(String(a.experiment.latestRun.startedAt)))
      .slice(0, 10)));
  }, [projects, refresh]);
  return activity;
}

function FailingGates() {
  const { data, error, loading } = useApi('/gates?status=FAIL&limit=20');
  if (loading) return html`<${Loading} what="Loading gates" />`;
  if (error?.status === 404) return html`<${Empty}>This server does not record gate verdicts.</${Empty}>`;
  if (error) return html`<${ErrorNote} error=${error} what="Failing gates" />`;
  const gates = Array.isArray(data) ? data : data?.content ?? data?.gates ?? [];
  if (gates.length === 0) return html`<${Empty}>No failing gates. \u2714</${Empty}>`;
  return html`
    <table class="data" data-testid="failing-gates">
      <caption class="sr-only">Failing gates</caption>
      <thead><tr><th scope="col">When</th><th scope="col">Experiment</th><th scope="col">Project</th><th scope="col">Verdict</th><th scope="col" class="num">Pass rate change</th><th scope="col">Compare</th></tr></thead>
      <tbody>
        ${gates.map((gate) => html`
          <tr>
            <td>${when(gate.createdAt ?? gate.decidedAt)}</td>
            <td><a href=${`/experiments/${encodeURIComponent(gate.experimentId)}`}>${gate.experimentName ?? gate.experimentId}</a></td>
            <td>${gate.projectName ?? ''}</td>
            <td><${Badge} status=${gate.status} /></td>
            <td class="num">${signedPoints(gate.passRateDelta)}</td>
            <td>${gate.baselineRunId && html`<a href=${`/experiments/${encodeURIComponent(gate.experimentId)}/diff?candidate=${encodeURIComponent(gate.candidateRunId)}&baseline=${encodeURIComponent(gate.baselineRunId)}`}>diff</a>`}</td>
          </tr>`)}
      </tbody>
    </table>`;
}

export function Dashboard() {
  const { data: projects, error, loading } = useApi('/projects');
  const activity = useLatestActivity(projects);
  return html`
    <${PageHeader} title="Dashboard" />
    <section aria-labelledby="projects-heading">
      <h2 id="projects-heading">Projects</h2>
      ${loading && html`<${Loading} what="Loading projects" />`}
      <${ErrorNote} error=${error} what="Projects" />
      ${projects && projects.length === 0 && html`<${Empty}>No runs yet: report one with the server reporter or krino upload.</${Empty}>`}
      ${projects && projects.length > 0 && html`
        <table class="data" data-testid="projects">
          <caption class="sr-only">Projects</caption>
          <thead><tr><th scope="col">Project</th><th scope="col" class="num">Experiments</th><th scope="col">Latest activity</th></tr></thead>
          <tbody>
            ${projects.map((project) => html`
              <tr>
                <td><a href=${`/projects/${encodeURIComponent(project.name)}`}>${project.name}</a></td>
                <td class="num">${integer(project.experimentCount)}</td>
                <td>${when(project.latestActivity)}</td>
              </tr>`)}
          </tbody>
        </table>`}
    </section>
    <section aria-labelledby="activity-heading">
      <h2 id="activity-heading">Latest activity</h2>
      ${activity === null && projects && html`<${Loading} />`}
      ${activity && activity.length === 0 && html`<${Empty}>No runs yet.</${Empty}>`}
      ${activity && activity.length > 0 && html`
        <table class="data" data-testid="activity">
          <caption class="sr-only">Newest runs</caption>
          <thead><tr><th scope="col">Started</th><th scope="col">Project</th><th scope="col">Experiment</th><th scope="col">Status</th><th scope="col" class="num">Pass rate</th><th scope="col">Run</th></tr></thead>
          <tbody>
            ${activity.map(({ project, experiment }) => html`
              <tr>
                <td>${when(experiment.latestRun.startedAt)}</td>
                <td><a href=${`/projects/${encodeURIComponent(project)}`}>${project}</a></td>
                <td><a href=${`/experiments/${encodeURIComponent(experiment.id)}`}>${experiment.name}</a></td>
                <td><${Badge} status=${experiment.latestRun.status} /></td>
                <td class="num">${percent(experiment.latestRun.passRate)}</td>
                <td><a href=${`/runs/${encodeURIComponent(experiment.latestRun.runId)}`}>open</a></td>
              </tr>`)}
          </tbody>
        </table>`}
    </section>
    <section aria-labelledby="gates-heading">
      <h2 id="gates-heading">Failing gates</h2>
      <${FailingGates} />
    </section>`;
}
