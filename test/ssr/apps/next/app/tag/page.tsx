import { Tag } from '../widget';

export const dynamic = 'force-dynamic';

export default function Page() {
  return (
    <main>
      <Tag baseUrl={process.env.HUB_BASE_URL!} formUrl={process.env.HUB_FORM_URL!} />
    </main>
  );
}
