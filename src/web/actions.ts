// The forms of the athlete's pages, answered: liking, commenting, choosing who sees an entry, deleting
// it, befriending, finding someone, and the settings page (posting an entry is compose.ts). Each runs a
// GraphQL operation of src/operations/pages.graphql as the logged-in athlete, after the form's CSRF
// check; a refused form is shown again with what was wrong above it, a done one leads on (303).
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { CSRF_COOKIE, csrfMatches } from '../auth/session.ts';
import { MAX_ACTIVITY_FILE_BYTES } from '../domain/activity-file.ts';
import type { FieldIssue } from '../domain/errors.ts';
import { NOTIFICATION_KINDS } from '../domain/notifications.ts';
import { BodyTooLargeError, MalformedBodyError } from '../http/body.ts';
import { html, type Markup } from '../http/html.ts';
import { readMultipartForm } from '../http/multipart.ts';
import { type RequestContext, type Router, readForm } from '../http/router.ts';
import { MAX_IMAGE_BYTES } from '../media/images.ts';
import {
  type NotificationKind,
  PageAcceptFediverseFollowerDocument,
  PageAcceptFriendDocument,
  PageAddPrivacyZoneDocument,
  PageBlockFediverseAccountDocument,
  PageBlockPersonDocument,
  PageCreateCommentDocument,
  PageCreateGearDocument,
  PageDeclineFriendDocument,
  PageDeleteCommentDocument,
  PageDeleteEntryDocument,
  PageDeleteGearDocument,
  PageEditCommentDocument,
  PageEditEntryDocument,
  PageEntryDetailDocument,
  PageFindPersonDocument,
  PageFollowFediverseAccountDocument,
  PageGearDocument,
  PageLikeEntryDocument,
  PageMarkNotificationsReadDocument,
  PageModerateDocument,
  PageMuteFediverseAccountDocument,
  PageMutePersonDocument,
  PageRemoveFediverseFollowerDocument,
  PageRemoveFriendDocument,
  PageRemovePrivacyZoneDocument,
  PageReportContentDocument,
  PageRequestFriendDocument,
  PageSetEmailDocument,
  PageSetEmailFrequencyDocument,
  PageSetNotificationPreferenceDocument,
  PageUnblockFediverseAccountDocument,
  PageUnblockPersonDocument,
  PageUnfollowFediverseAccountDocument,
  PageUnlikeEntryDocument,
  PageUnmuteFediverseAccountDocument,
  PageUnmutePersonDocument,
  PageUnsubscribeEmailDocument,
  PageUpdateEntryDocument,
  PageUpdateFediverseSettingsDocument,
  PageUpdateGearDocument,
  PageUpdateProfileDocument,
  PageVerifyEmailDocument,
  PageViewerSettingsDocument,
  type Visibility,
} from '../operations/generated.ts';
import { safeNext } from '../pages/kit.ts';
import { hidden } from '../pages/layout.ts';
import { postEntry } from './compose.ts';
import { type Form, field, issuesOf, type Outcome, seeOther } from './form-outcome.ts';
import { findForm } from './forms.ts';
import { gearFormInput } from './gear-pages.ts';
import { entryPage, gearPage, layoutPage, notFoundPage } from './pages.ts';
import { type PageRead, pageData, pageReader, problemPage, type WebOptions } from './routes.ts';
import { type SettingsForm, settingsPage } from './settings-page.ts';

/** The compose form may carry a track file and a photo, each at its own limit. */
const COMPOSE_LIMIT_BYTES = MAX_ACTIVITY_FILE_BYTES + MAX_IMAGE_BYTES + 256 * 1024;

/** What a form's action answers: a redirect, a page refusing the form (422), or a page with its own status. */
type Act = (ctx: RequestContext, read: PageRead, form: Form) => Promise<Response | Markup | [number, Markup]>;
type Post = (path: string, act: Act, multipart?: boolean) => void;

export function mountWebActions(router: Router, options: WebOptions): void {
  const respond = pageReader(options);
  const { run } = options;

  /**
   * A form post by a logged-in athlete with the CSRF token of their page. Without a session: the log-in
   * page; with a forged or expired form: 403, and nothing done.
   */
  const post: Post = (path, act, multipart = false) =>
    router.post(path, (ctx) =>
      respond(ctx.request, async (read) => {
        if (!read.session.viewer) return seeOther('/login');
        let form: Form;
        try {
          form = new Map(
            multipart ? await readMultipartForm(ctx.request, ctx.exchange, COMPOSE_LIMIT_BYTES) : [...(await readForm(ctx)).entries()],
          );
        } catch (error) {
          if (!(error instanceof BodyTooLargeError || error instanceof MalformedBodyError)) throw error;
          return [error instanceof BodyTooLargeError ? 413 : 400, problemPage(read, 'The form could not be read', error.message)];
        }
        if (!csrfMatches(read.session.cookies[CSRF_COOKIE], field(form, 'csrf'))) {
          return [
            403,
            problemPage(read, 'The form expired', 'The form expired or came from another site. Go back, reload the page and try again.'),
          ];
        }
        const answer = await act(ctx, read, form);
        return answer instanceof Response || Array.isArray(answer) ? answer : [422, answer];
      }),
    );

  post('/compose', (ctx, read, form) => postEntry(ctx.request, read, form, run), true);
  mountEntryActions(post, run);
  mountFriendshipAction(post, run);
  mountSafetyAction(post, run);
  mountNotificationActions(post, run);
  mountModerationAction(post, run);
  mountSettings(router, respond, post, run);
  mountMailLinks(router, respond, run);

  // an athlete by username: their page, or a page saying there is nobody by that name
  router.get('/people', ({ request, url }) =>
    respond(request, async (read) => {
      const username = (url.searchParams.get('username') ?? '').trim().replace(/^@/, '');
      if (username) {
        const { person } = pageData(await run(PageFindPersonDocument, request, read.context, { username }));
        if (person) return seeOther(`/people/${encodeURIComponent(person.username)}`);
      }
      const body = html`${username && html`<p class="card" role="status">Nobody is called ${username}.</p>`}<div class="card">${findForm(username)}</div>`;
      return [username ? 404 : 200, layoutPage(read.visitor(), 'Find an athlete', body)];
    }),
  );
}

/**
 * The links mails carry, which work without a session (their token says whose they are): following a
 * verification link verifies the address; an unsubscribe link shows a button, and its POST (the button, or
 * a mail program's one-click unsubscribe, RFC 8058) stops the mails. A GET never unsubscribes: link
 * scanners fetch every link of a mail.
 */
function mountMailLinks(router: Router, respond: Respond, run: WebOptions['run']): void {
  const tokenOf = (url: URL) => (url.searchParams.get('token') ?? '').slice(0, 1000);
  router.get('/email/verify', ({ request, url }) =>
    respond(request, async (read) => {
      const issues = issuesOf(await run(PageVerifyEmailDocument, request, read.context, { token: tokenOf(url) }));
      if (issues) return [400, problemPage(read, 'This link does not work', issues.map((issue) => issue.message).join('; '))];
      const next = read.session.viewer ? html`<p><a href="/notifications">Choose which notifications are mailed</a>.</p>` : null;
      return [
        200,
        layoutPage(
          read.visitor(),
          'Address verified',
          html`<p class="card" role="status">Your address is verified: notifications will be mailed to it.</p>${next}`,
        ),
      ];
    }),
  );
  router.get('/email/unsubscribe', ({ request, url }) =>
    respond(request, async (read) => {
      const action = `/email/unsubscribe?token=${encodeURIComponent(tokenOf(url))}`;
      return [
        200,
        layoutPage(
          read.visitor(),
          'Stop the mails',
          html`<div class="card"><p>Stop every notification mail from Milepost to this address? You can choose again in your settings.</p>
<form method="post" action="${action}"><button type="submit" name="List-Unsubscribe" value="One-Click">Stop the mails</button></form></div>`,
        ),
      ];
    }),
  );
  router.post('/email/unsubscribe', ({ request, url }) =>
    respond(request, async (read) => {
      const issues = issuesOf(await run(PageUnsubscribeEmailDocument, request, read.context, { token: tokenOf(url) }));
      if (issues) return [400, problemPage(read, 'This link does not work', issues.map((issue) => issue.message).join('; '))];
      return [
        200,
        layoutPage(
          read.visitor(),
          'Mails stopped',
          html`<p class="card" role="status">Done: Milepost mails you no more notifications.</p>`,
        ),
      ];
    }),
  );
}

/** Like, unlike, comment, edit, who sees it, delete: then the entry's page, or it again with what went wrong. */
function mountEntryActions(post: Post, run: WebOptions['run']): void {
  const entryOf = (ctx: RequestContext) => Number(ctx.params.id);
  const action = (
    path: string,
    mutate: (ctx: RequestContext, read: PageRead, form: Form) => Promise<Outcome>,
    after?: (read: PageRead) => string,
  ) =>
    post(`/entries/:id/${path}`, async (ctx, read, form) => {
      if (!Number.isInteger(entryOf(ctx)) || entryOf(ctx) < 1) return notFoundPage(read.visitor(), `Entry ${ctx.params.id}`);
      const issues = issuesOf(await mutate(ctx, read, form));
      if (!issues) return seeOther(after ? after(read) : `/entries/${entryOf(ctx)}`);
      const { entry, reader } = pageData(await run(PageEntryDetailDocument, ctx.request, read.context, { id: entryOf(ctx) }));
      if (!entry) return notFoundPage(read.visitor(reader), `Entry ${ctx.params.id}`);
      return entryPage(read.visitor(reader), entry, {
        issues,
        comment: field(form, 'body'),
        ownZones: reader?.privacyZones,
        gear: reader?.gear,
      });
    });
  action('like', (ctx, read) => run(PageLikeEntryDocument, ctx.request, read.context, { entryId: entryOf(ctx) }));
  action('unlike', (ctx, read) => run(PageUnlikeEntryDocument, ctx.request, read.context, { entryId: entryOf(ctx) }));
  action('comment', (ctx, read, form) =>
    run(PageCreateCommentDocument, ctx.request, read.context, { entryId: entryOf(ctx), body: field(form, 'body') }),
  );
  action('comments/:commentId/delete', (ctx, read) =>
    run(PageDeleteCommentDocument, ctx.request, read.context, { id: ctx.params.commentId! }),
  );
  action('comments/:commentId/edit', (ctx, read, form) =>
    run(PageEditCommentDocument, ctx.request, read.context, { id: ctx.params.commentId!, body: field(form, 'body') }),
  );
  action('edit', (ctx, read, form) =>
    run(PageEditEntryDocument, ctx.request, read.context, {
      id: entryOf(ctx),
      message: field(form, 'message'),
      ...(form.has('workout_title') && { workoutTitle: field(form, 'workout_title') }),
      // the gear it was done in: one of the athlete's, or none
      ...(form.has('gear') && { workout: { gearId: field(form, 'gear') === 'none' ? null : field(form, 'gear') } }),
    }),
  );
  post('/entries/:id/report', async (ctx, read, form) => {
    const comment = field(form, 'comment');
    const target = comment ? { commentId: comment } : { entryId: entryOf(ctx) };
    const issues = issuesOf(await run(PageReportContentDocument, ctx.request, read.context, { ...target, reason: field(form, 'reason') }));
    if (issues) return problemPage(read, 'Not reported', issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '));
    return seeOther(`/entries/${entryOf(ctx)}?reported=1`);
  });
  action('visibility', (ctx, read, form) =>
    run(PageUpdateEntryDocument, ctx.request, read.context, { id: entryOf(ctx), visibility: field(form, 'visibility') as Visibility }),
  );
  const unconfirmed: Outcome = {
    data: {
      result: {
        error: { errorMessage: 'tick the box to confirm', issues: [{ path: 'confirm', message: 'tick the box to confirm the deletion' }] },
      },
    },
  };
  action(
    'delete',
    async (ctx, read, form) =>
      field(form, 'confirm') === 'yes' ? run(PageDeleteEntryDocument, ctx.request, read.context, { id: entryOf(ctx) }) : unconfirmed,
    (read) => `/people/${encodeURIComponent(read.session.viewer!.username)}`,
  );
}

/** Ask, accept, decline, withdraw or unfriend; back to the person's page (or the settings page). */
function mountFriendshipAction(post: Post, run: WebOptions['run']): void {
  mountPersonAction(post, run, 'friendship', {
    documents: {
      request: PageRequestFriendDocument,
      accept: PageAcceptFriendDocument,
      decline: PageDeclineFriendDocument,
      remove: PageRemoveFriendDocument,
    },
    choose: 'Choose to ask, accept, decline or end a friendship.',
    refused: 'The friendship did not change',
  });
}

/**
 * A form on a person's page whose `action` picks one of `documents` (each a mutation of `username`),
 * back to their page (or to the form's `back`, one of our own pages).
 */
function mountPersonAction(
  post: Post,
  run: WebOptions['run'],
  path: string,
  options: {
    documents: Record<string, TypedDocumentNode<{ result: unknown }, { username: string }>>;
    choose: string;
    refused: string;
    /** Actions asked about first: the page that asks (its form posts again with `confirm=yes`). */
    confirm?: Record<string, (read: PageRead, username: string, form: Form) => Markup>;
  },
): void {
  post(`/people/:username/${path}`, async (ctx, read, form) => {
    const action = field(form, 'action');
    const username = ctx.params.username!;
    if (!Object.hasOwn(options.documents, action)) return problemPage(read, 'Nothing to do', options.choose);
    const ask = options.confirm?.[action];
    if (ask && field(form, 'confirm') !== 'yes') return [200, ask(read, username, form)];
    const issues = issuesOf((await run(options.documents[action]!, ctx.request, read.context, { username })) as Outcome);
    if (issues) return problemPage(read, options.refused, issues.map((issue) => issue.message).join('; '));
    return seeOther(safeNext(field(form, 'back') || null) ?? `/people/${encodeURIComponent(username)}`);
  });
}

/** A moderator's decision on a report; back to the queue. */
function mountModerationAction(post: Post, run: WebOptions['run']): void {
  post('/moderation/:reportId', async (ctx, read, form) => {
    const action = field(form, 'action');
    if (action !== 'HIDE' && action !== 'SUSPEND' && action !== 'DISMISS')
      return problemPage(read, 'Nothing to do', 'Choose to hide, suspend or dismiss.');
    const issues = issuesOf(await run(PageModerateDocument, ctx.request, read.context, { reportId: ctx.params.reportId!, action }));
    if (issues) return problemPage(read, 'Nothing changed', issues.map((issue) => issue.message).join('; '));
    return seeOther('/moderation');
  });
}

/** Marking every notification read, and choosing the kinds heard of; back to the notifications page. */
function mountNotificationActions(post: Post, run: WebOptions['run']): void {
  post('/notifications/read', async (ctx, read) => {
    const issues = issuesOf(await run(PageMarkNotificationsReadDocument, ctx.request, read.context));
    return issues ? problemPage(read, 'Nothing changed', issues.map((issue) => issue.message).join('; ')) : seeOther('/notifications');
  });
  post('/notifications/preferences', async (ctx, read, form) => {
    // a box a kind (a form's names are read once each: `on_LIKE`, `mail_LIKE`)
    const ticked = (box: string) => field(form, box) === 'yes';
    for (const kind of NOTIFICATION_KIND_NAMES) {
      // the mail boxes are there only where the instance sends mail: without them, the mail choice stays
      const choice = { kind, inApp: ticked(`on_${kind}`), email: field(form, 'mail_shown') === 'yes' ? ticked(`mail_${kind}`) : undefined };
      const issues = issuesOf(await run(PageSetNotificationPreferenceDocument, ctx.request, read.context, choice));
      if (issues) return problemPage(read, 'Nothing changed', issues.map((issue) => issue.message).join('; '));
    }
    return seeOther('/notifications?saved=kinds');
  });
}

/** The kinds as the schema names them (the preferences form's values). */
const NOTIFICATION_KIND_NAMES = NOTIFICATION_KINDS.map((kind) => kind.toUpperCase() as NotificationKind);

/** Block, unblock, mute or unmute; back to the person's page (which the blocker still reads). */
function mountSafetyAction(post: Post, run: WebOptions['run']): void {
  post('/people/:username/report', async (ctx, read, form) => {
    const variables = { personId: field(form, 'person'), reason: field(form, 'reason') };
    const issues = issuesOf(await run(PageReportContentDocument, ctx.request, read.context, variables));
    if (issues) return problemPage(read, 'Not reported', issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '));
    return seeOther(`/people/${encodeURIComponent(ctx.params.username!)}?reported=1`);
  });
  mountPersonAction(post, run, 'safety', {
    documents: {
      block: PageBlockPersonDocument,
      unblock: PageUnblockPersonDocument,
      mute: PageMutePersonDocument,
      unmute: PageUnmutePersonDocument,
    },
    choose: 'Choose to block, unblock, mute or unmute.',
    refused: 'Nothing changed',
    confirm: { block: blockQuestion },
  });
}

/** Blocking ends a friendship and hides both ways: asked once more, with what it does, before it is done. */
function blockQuestion(read: PageRead, username: string, form: Form): Markup {
  const action = `/people/${encodeURIComponent(username)}/safety`;
  return layoutPage(
    read.visitor(),
    `Block ${username}?`,
    html`<section class="card"><p>Blocking <strong>@${username}</strong> ends any friendship between you. Neither of you will see the other’s entries; they cannot find you, comment, like or ask to be friends. They are not told, and you can unblock them later from your settings.</p>
<form method="post" action="${action}" class="actions">${hidden('csrf', read.session.csrf)}${hidden('action', 'block')}${hidden('confirm', 'yes')}${hidden('back', field(form, 'back'))}<button type="submit" class="danger">Yes, block @${username}</button></form>
<p><a href="/people/${encodeURIComponent(username)}">No, go back</a></p></section>`,
  );
}

type Respond = ReturnType<typeof pageReader>;

/** The settings form's avatar as updateProfile takes it: an upload, an address, the initials, or unchanged. */
function avatarInput(form: Form): { photo: File } | { photoUrl: string } | Record<string, never> {
  const photo = form.get('photo');
  if (photo instanceof File && photo.size > 0) return { photo };
  const url = field(form, 'photo_url').trim();
  if (url) return { photoUrl: url };
  // the initials: asked for, or the address the form showed was emptied
  if (field(form, 'initials') === 'yes' || field(form, 'photo_url_was')) return { photoUrl: '' };
  return {};
}

const SAVED: Record<string, string> = {
  profile: 'Your profile and privacy settings are saved.',
  zones: 'Your privacy zones are saved.',
  thresholds: 'Your training zones are saved: every workout’s time in zones follows them.',
  gear: 'Your gear is saved.',
  fediverse: 'Your fediverse settings are saved. A follow of a remote account waits for its server to accept it.',
  email: 'Your mail settings are saved. A new address is mailed a link: follow it to have notifications mailed there.',
};

/** What the settings page shows: the athlete's settings and the people they keep away. */
async function settingsOf(run: WebOptions['run'], request: Request, read: PageRead) {
  const data = pageData(await run(PageViewerSettingsDocument, request, read.context));
  return {
    me: data.me!,
    more: { email: data.emailSettings, blocked: data.blocked, muted: data.muted, fediverseHost: data.fediverse.host },
  };
}

/** The settings page again, with what a form got wrong. */
const settingsAgain = (run: WebOptions['run']) => async (ctx: RequestContext, read: PageRead, form: SettingsForm) => {
  const { me, more } = await settingsOf(run, ctx.request, read);
  return settingsPage(read.visitor(me), me, form, more);
};

/** The training zones' form: the thresholds every workout's zones are made of. */
function mountThresholds(post: Post, run: WebOptions['run']): void {
  post('/settings/thresholds', async (ctx, read, form) => {
    // empty: none of the athlete's own (0 clears it); a figure that is no whole number is refused as out of bounds
    const figure = (name: string) => {
      const text = field(form, name).trim();
      return text === '' ? 0 : Number.isInteger(Number(text)) ? Number(text) : -1;
    };
    const input = {
      maxHeartRate: figure('max_heart_rate'),
      restingHeartRate: figure('resting_heart_rate'),
      thresholdPower: figure('threshold_power'),
    };
    const issues = issuesOf(await run(PageUpdateProfileDocument, ctx.request, read.context, { input }));
    return issues ? settingsAgain(run)(ctx, read, { thresholdIssues: issues }) : seeOther('/settings?saved=thresholds');
  });
}

/** Gear: added from the settings page, changed and deleted from its own page (web/gear-pages.ts). */
function mountGear(post: Post, run: WebOptions['run']): void {
  post('/settings/gear', async (ctx, read, form) => {
    const input = gearFormInput((name) => field(form, name));
    const issues = issuesOf(await run(PageCreateGearDocument, ctx.request, read.context, { input: input as never }));
    return issues ? settingsAgain(run)(ctx, read, { gearIssues: issues }) : seeOther('/settings?saved=gear#gear');
  });
  // the gear's page again, with what the form got wrong
  const gearAgain = async (ctx: RequestContext, read: PageRead, issues: FieldIssue[]) => {
    const { gear, reader } = pageData(await run(PageGearDocument, ctx.request, read.context, { id: ctx.params.id!, page: 1 }));
    if (!gear) return [404, notFoundPage(read.visitor(reader), `Gear ${ctx.params.id}`)] as [number, Markup];
    return gearPage(read.visitor(reader), gear, { entries: gear.workouts.edges.map((edge) => edge.node), page: 1, hasNext: false }, issues);
  };
  post('/gear/:id', async (ctx, read, form) => {
    const input = { id: ctx.params.id!, ...gearFormInput((name) => field(form, name)), retired: field(form, 'retired') === 'yes' };
    // retired gear is the default of nothing: its boxes are let go rather than refused
    if (input.retired) input.defaultFor = [];
    const issues = issuesOf(await run(PageUpdateGearDocument, ctx.request, read.context, { input: input as never }));
    return issues ? gearAgain(ctx, read, issues) : seeOther(`/gear/${encodeURIComponent(ctx.params.id!)}?saved`);
  });
  post('/gear/:id/delete', async (ctx, read, form) => {
    if (field(form, 'confirm') !== 'yes')
      return gearAgain(ctx, read, [{ path: 'confirm', message: 'tick the box to confirm the deletion' }]);
    const issues = issuesOf(await run(PageDeleteGearDocument, ctx.request, read.context, { id: ctx.params.id! }));
    return issues ? gearAgain(ctx, read, issues) : seeOther('/settings?saved=gear#gear');
  });
}

/** The fediverse card's forms: settings, accepting or removing a follower, following or unfollowing an account. */
function mountFediverse(post: Post, run: WebOptions['run']): void {
  const documents = {
    accept: PageAcceptFediverseFollowerDocument,
    remove: PageRemoveFediverseFollowerDocument,
    follow: PageFollowFediverseAccountDocument,
    unfollow: PageUnfollowFediverseAccountDocument,
    block: PageBlockFediverseAccountDocument,
    unblock: PageUnblockFediverseAccountDocument,
    mute: PageMuteFediverseAccountDocument,
    unmute: PageUnmuteFediverseAccountDocument,
  } as const;
  post('/settings/fediverse', async (ctx, read, form) => {
    const action = field(form, 'action');
    const result =
      action === 'settings'
        ? await run(PageUpdateFediverseSettingsDocument, ctx.request, read.context, {
            optOut: field(form, 'opt_out') === 'yes',
            autoAccept: field(form, 'auto_accept') === 'yes',
          })
        : action in documents
          ? await run(documents[action as keyof typeof documents], ctx.request, read.context, { handle: field(form, 'handle') })
          : null;
    const issues = result
      ? issuesOf(result)
      : [{ path: 'action', message: 'choose settings, accept, remove, follow, unfollow, block, unblock, mute or unmute' }];
    return issues ? settingsAgain(run)(ctx, read, { fediverseIssues: issues }) : seeOther('/settings?saved=fediverse#fediverse');
  });
}

/** The settings page, its profile form and its privacy zones. */
function mountSettings(router: Router, respond: Respond, post: Post, run: WebOptions['run']): void {
  const again = settingsAgain(run);
  mountThresholds(post, run);
  mountGear(post, run);
  mountFediverse(post, run);
  router.get('/settings', ({ request, url }) =>
    respond(request, async (read) => {
      if (!read.session.viewer) return seeOther('/login?next=%2Fsettings');
      const { me, more } = await settingsOf(run, request, read);
      return [200, settingsPage(read.visitor(me), me, { saved: SAVED[url.searchParams.get('saved') ?? ''] ?? null }, more)];
    }),
  );
  // the address (set, changed, cleared, or its link mailed again) and how often notifications are mailed
  post('/settings/email', async (ctx, read, form) => {
    const { email } = (await settingsOf(run, ctx.request, read)).more;
    const address = field(form, 'address').trim();
    if (address.toLowerCase() !== (email?.address ?? '').toLowerCase() || field(form, 'resend') === 'yes') {
      const issues = issuesOf(await run(PageSetEmailDocument, ctx.request, read.context, { address: address || null }));
      if (issues) return again(ctx, read, { emailIssues: issues });
    }
    const frequency = field(form, 'frequency');
    if (frequency && frequency !== email?.frequency) {
      const issues = issuesOf(await run(PageSetEmailFrequencyDocument, ctx.request, read.context, { frequency: frequency as never }));
      if (issues) return again(ctx, read, { emailIssues: issues });
    }
    return seeOther('/settings?saved=email#email');
  });
  post(
    '/settings',
    async (ctx, read, form) => {
      const ends = field(form, 'hidden_ends_meters');
      const input = {
        displayName: field(form, 'display_name'),
        location: field(form, 'location'),
        ...avatarInput(form),
        timeZone: field(form, 'time_zone') || undefined,
        units: field(form, 'units'),
        weekStart: field(form, 'week_start'),
        defaultVisibility: field(form, 'default_visibility'),
        statsVisibility: field(form, 'stats_visibility'),
        ...(ends !== '' ? { hiddenEndsMeters: Number.isInteger(Number(ends)) ? Number(ends) : -1 } : {}),
      };
      const issues = issuesOf(await run(PageUpdateProfileDocument, ctx.request, read.context, { input: input as never }));
      return issues ? again(ctx, read, { profileIssues: issues }) : seeOther('/settings?saved=profile');
    },
    true,
  );
  post('/settings/zones', async (ctx, read, form) => {
    const [lat, lon, radiusMeters] = ['lat', 'lon', 'radius_meters'].map((name) =>
      field(form, name).trim() === '' ? Number.NaN : Number(field(form, name)),
    );
    const issues = (
      [
        ['lat', lat],
        ['lon', lon],
        ['radius_meters', radiusMeters],
      ] as const
    )
      .filter(([, value]) => !Number.isFinite(value))
      .map(([path]) => ({ path, message: 'is not a number' }));
    const refused = issues.length
      ? issues
      : issuesOf(await run(PageAddPrivacyZoneDocument, ctx.request, read.context, { lat: lat!, lon: lon!, radiusMeters: radiusMeters! }));
    return refused ? again(ctx, read, { zoneIssues: refused }) : seeOther('/settings?saved=zones');
  });
  post('/settings/zones/:id/delete', async (ctx, read) => {
    const issues = issuesOf(await run(PageRemovePrivacyZoneDocument, ctx.request, read.context, { id: ctx.params.id! }));
    return issues ? again(ctx, read, { zoneIssues: issues }) : seeOther('/settings?saved=zones');
  });
}
