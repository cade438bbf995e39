import type { Pet } from '@petstore/contract';
import { useRef, useState } from 'react';
import { Alert } from './controls';
import { describeError } from './describe-error';
import type { Following } from './use-live-pets';
import type { PetList } from './use-pet-list';

interface Props {
  list: PetList;
  following: Following;
  /** The waiting pets are listed now: `first` is the one to take the person to. */
  onShown(first: Pet): void;
}

const FOLLOWING_WORDS: Record<Following['kind'], string> = {
  quiet: '',
  lost: 'Lost touch with the shop. New pets will show when we are back.',
  back: 'Back in touch with the shop.',
  stopped: '',
};

const newPetsWords = (count: number) => `${count} new ${count === 1 ? 'pet' : 'pets'}`;

/**
 * What the list hears of pets added elsewhere, said politely (live regions, in the page from the start so that each
 * change is announced, and apart from the list's summary): the connection only when it drops and comes back, a pet
 * listed at once, or a notice of the new pets after the pages not yet loaded, which loads them.
 */
export function LiveNews({ list, following, onShown }: Props) {
  const { waiting, arrival } = list;
  const [showing, setShowing] = useState(false);
  // Read by a second click before React has re-rendered for the first.
  const inFlight = useRef(false);

  const show = async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setShowing(true);
    const [first] = waiting;
    const shown = await list.showWaiting();
    inFlight.current = false;
    setShowing(false);
    if (shown) onShown(first);
  };

  return (
    <>
      <p aria-live="polite" className="note">
        {FOLLOWING_WORDS[following.kind]}
      </p>
      <Alert>{following.kind === 'stopped' && `New pets added elsewhere will not show here by themselves. ${describeError(following.error)}`}</Alert>
      <p aria-live="polite" className="note">
        {waiting.length > 0 ? (
          <button type="button" className={showing ? 'secondary busy' : 'secondary'} aria-disabled={showing} onClick={show}>
            {newPetsWords(waiting.length)}
          </button>
        ) : (
          arrival && `${arrival.name} was added.`
        )}
      </p>
    </>
  );
}
