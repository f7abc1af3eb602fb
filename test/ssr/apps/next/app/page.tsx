import { Widget } from './widget';

// Rendered on each request: the simulator's addresses come from the environment of `next start`.
export const dynamic = 'force-dynamic';

export default function Page() {
  return (
    <main>
      <Widget baseUrl={process.env.HUB_BASE_URL!} formUrl={process.env.HUB_FORM_URL!} />
    </main>
  );
}
