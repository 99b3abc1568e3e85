import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Loaded } from './loaded';
import { LoadedList } from './loaded-list';
import { useLoad } from './use-load';

/** A loader that fails its first `failures` calls, counting them. */
function flakyLoader(failures: number) {
  const attempts = { count: 0 };
  const loader = async () => {
    attempts.count += 1;
    if (attempts.count <= failures) throw new Error('connection reset');
    return ['first row', 'second row'];
  };
  return { attempts, loader };
}

function Section({ loader }: { loader: () => Promise<string[]> }) {
  const load = useLoad('user-1', loader);
  return (
    <Loaded load={load} errorMessage="We couldn't load your rows.">
      {(rows) => (
        <>
          <ul>
            {rows.map((row) => (
              <li key={row}>{row}</li>
            ))}
          </ul>
          <button type="button" onClick={() => load.update((current) => ['added row', ...current])}>
            add
          </button>
        </>
      )}
    </Loaded>
  );
}

function renderSection(loader: () => Promise<string[]>) {
  return render(
    <ChakraProvider value={defaultSystem}>
      <Section loader={loader} />
    </ChakraProvider>,
  );
}

describe('Loaded + useLoad', () => {
  it('shows Loading..., then the rows', async () => {
    renderSection(flakyLoader(0).loader);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(await screen.findAllByRole('listitem')).toHaveLength(2);
  });

  it('shows the failure with the service message and recovers on Retry', async () => {
    const { attempts, loader } = flakyLoader(1);
    renderSection(loader);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load your rows.");
    expect(alert).toHaveTextContent('connection reset');

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findAllByRole('listitem')).toHaveLength(2);
    expect(attempts.count).toBe(2);
  });

  it('updates loaded data in place (optimistic changes, inserted rows)', async () => {
    renderSection(flakyLoader(0).loader);
    await screen.findAllByRole('listitem');
    await userEvent.click(screen.getByRole('button', { name: 'add' }));
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'added row',
      'first row',
      'second row',
    ]);
  });
});

function ListSection({ rows }: { rows: { id: string; name: string }[] }) {
  const load = useLoad('user-1', async () => rows);
  return (
    <LoadedList load={load} errorMessage="We couldn't load your rows." emptyText="No rows yet" testId="rows">
      {(row) => <li key={row.id}>{row.name}</li>}
    </LoadedList>
  );
}

describe('LoadedList', () => {
  const renderList = (rows: { id: string; name: string }[]) =>
    render(
      <ChakraProvider value={defaultSystem}>
        <ListSection rows={rows} />
      </ChakraProvider>,
    );

  it('shows the empty text, not an empty list, when there are no rows', async () => {
    renderList([]);
    expect(await screen.findByText('No rows yet')).toBeTruthy();
    expect(screen.queryByTestId('rows')).toBeNull();
  });

  it('renders one item per row in order', async () => {
    renderList([{ id: 'a', name: 'first' }, { id: 'b', name: 'second' }]);
    expect((await screen.findAllByRole('listitem')).map((item) => item.textContent)).toEqual(['first', 'second']);
    expect(screen.queryByText('No rows yet')).toBeNull();
  });
});
