/**
 * English texts of the features around a match (clock, claims, rematch, replays, decks), in
 * their own i18next namespace 'features'. Every key here must exist in de.ts, pl.ts and fr.ts
 * too (test/features-i18n.test.ts checks).
 */
export interface FeatureTexts {
  [key: string]: string | FeatureTexts;
}

export const en = {
  clock: {
    label: 'Clocks',
    seat: '{{side}} ({{name}}): {{time}}',
    running: 'running',
  },
  opponent: {
    label: 'Opponent',
    human: 'a person you invite',
    easy: 'the computer, easy',
    medium: 'the computer, medium',
    hard: 'the computer, hard',
  },
  demo: {
    title: 'Watch the computer play',
    text: 'Two computer players, at the hard level, play a whole match while you watch.',
    button: 'Start a demo match',
    busy: 'Starting…',
    failed: 'The demo could not start. Try again in a moment.',
  },
  clockChoice: {
    label: 'Clock',
    none: 'no clock',
    minutes: '{{minutes}} minutes per player',
  },
  claim: {
    away: 'Your opponent left {{seconds}} s ago.',
    wait: 'If they do not come back, you can claim the win in {{seconds}} s.',
    ready: 'Your opponent has been away too long: you may claim the win.',
    timeout: 'Your opponent’s time ran out.',
    button: 'Claim the win',
    busy: 'Claiming…',
  },
  rematch: {
    title: 'Rematch',
    offer: 'Offer a rematch',
    accept: 'Accept the rematch',
    offered: 'You offered a rematch; waiting for your opponent.',
    theyOffer: 'Your opponent offers a rematch, sides swapped.',
    starting: 'The rematch is starting…',
    spectators: 'The players agreed to a rematch.',
    follow: 'Watch the rematch',
  },
  reasons: {
    timeout: 'The {{side}} ran out of time.',
    abandoned: 'The {{side}} left the match and did not come back.',
  },
  deck: {
    uses: 'Deck: {{name}}, version {{version}}',
    reconstructed: 'partly reconstructed',
  },
  replay: {
    title: 'Replay',
    watch: 'Replay this match',
    export: 'Save the record file',
    importLink: 'Open a record file',
    loading: 'Loading the record…',
    move: 'Move {{index}} of {{count}}',
    start: 'Before the first move',
    first: 'First',
    previous: 'Previous',
    next: 'Next',
    last: 'Last',
    position: 'Position',
    failed: 'This record cannot be replayed: {{reason}}',
  },
  importPage: {
    title: 'Replay a record file',
    intro: 'Drop a match record (.json) here, or choose one.',
    choose: 'Record file',
    notJson: 'This file is not JSON.',
    invalid: 'This file is not a match record:',
  },
  decksPage: {
    title: 'Decks',
    intro:
      'Own the printed game? Upload a corrected deck file (JSON, at most 64 KB): matches can then be created with it.',
    choose: 'Deck file',
    upload: 'Upload',
    uploading: 'Uploading…',
    notJson: 'This file is not JSON.',
    tooLarge: 'This file is larger than 64 KB.',
    errors: 'The deck has errors:',
    stored: 'Stored: {{name}} (version {{version}}). Choose it when you create a match.',
    known: 'Decks on this server',
    link: 'Upload a deck',
  },
} satisfies FeatureTexts;

export type FeatureResources = typeof en;
