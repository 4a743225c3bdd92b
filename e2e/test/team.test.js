'use strict';
// TeamApi through the official SDK: get, update, info, members, invites,
// add and remove members, sub-teams, create and delete.

const { setup, expectHttpError, sdk, assert, FIXTURE } = require('../lib/harness');

const h = setup();
const { TeamApi } = sdk;

async function myTeamId() {
  return (await h.api(TeamApi).teamInfo()).body.team.teamId;
}

h.test('teamGet answers the caller team with typed accounts', async () => {
  const { response, body } = await h.api(TeamApi).teamGet();
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.TeamGetResponse);
  const t = body.team;
  assert.ok(t instanceof sdk.TeamResponse);
  assert.equal(t.name, 'Sandbox Team');
  assert.ok(Array.isArray(t.accounts));
  t.accounts.forEach((a) => assert.ok(a instanceof sdk.AccountResponse));
  const emails = t.accounts.map((a) => a.emailAddress).sort();
  assert.deepEqual(emails, [FIXTURE.owner.email, FIXTURE.teammate.email]);
  const owner = t.accounts.find((a) => a.emailAddress === FIXTURE.owner.email);
  assert.equal(owner.accountId, FIXTURE.owner.id);
  assert.equal(owner.roleCode, 'a');
  assert.ok(Array.isArray(t.invitedAccounts));
  assert.ok(Array.isArray(t.invitedEmails));
});

h.test('teamInfo answers a typed TeamInfoResponse', async () => {
  const { body } = await h.api(TeamApi).teamInfo();
  assert.ok(body instanceof sdk.TeamGetInfoResponse);
  const t = body.team;
  assert.ok(t instanceof sdk.TeamInfoResponse);
  assert.match(t.teamId, /^[0-9a-f]{40}$/);
  assert.equal(t.name, 'Sandbox Team');
  assert.equal(t.numMembers, 2);
  assert.equal(typeof t.numSubTeams, 'number');
  assert.equal(t.teamParent, null);
});

h.test('teamMembers lists members with roles and list_info', async () => {
  const teamId = await myTeamId();
  const { body } = await h.api(TeamApi).teamMembers(teamId, 1, 20);
  assert.ok(body instanceof sdk.TeamMembersResponse);
  assert.ok(body.listInfo instanceof sdk.ListInfoResponse);
  assert.equal(body.listInfo.numResults, 2);
  assert.equal(body.listInfo.page, 1);
  assert.equal(body.listInfo.pageSize, 20);
  assert.equal(body.listInfo.numPages, 1);
  for (const m of body.teamMembers) {
    assert.ok(m instanceof sdk.TeamMemberResponse);
    assert.match(m.accountId, /^[0-9a-f]{40}$/);
    assert.equal(typeof m.role, 'string');
  }
  const roles = Object.fromEntries(body.teamMembers.map((m) => [m.emailAddress, m.role]));
  assert.equal(roles[FIXTURE.owner.email], 'Admin');
  assert.equal(roles[FIXTURE.teammate.email], 'Member');
  await expectHttpError(h.api(TeamApi).teamMembers('0'.repeat(40)), { status: 404, errorName: 'not_found' });
});

h.test('teamUpdate renames the team', async () => {
  const { body } = await h.api(TeamApi).teamUpdate({ name: 'Renamed Team' });
  assert.ok(body instanceof sdk.TeamGetResponse);
  assert.equal(body.team.name, 'Renamed Team');
  assert.equal((await h.api(TeamApi).teamGet()).body.team.name, 'Renamed Team');
  await h.api(TeamApi).teamUpdate({ name: 'Sandbox Team' });
});

h.test('teamAddMember by e-mail invites the address; teamInvites lists the invitation', async () => {
  const api = h.api(TeamApi);
  const req = new sdk.TeamAddMemberRequest();
  req.emailAddress = 'invitee@example.com';
  const { body } = await api.teamAddMember(req);
  assert.ok(body instanceof sdk.TeamGetResponse);
  assert.ok(body.team.invitedEmails.includes('invitee@example.com'), JSON.stringify(body.team.invitedEmails));

  const inv = await api.teamInvites('invitee@example.com');
  assert.ok(inv.body instanceof sdk.TeamInvitesResponse);
  assert.equal(inv.body.teamInvites.length, 1);
  const i = inv.body.teamInvites[0];
  assert.ok(i instanceof sdk.TeamInviteResponse);
  assert.equal(i.emailAddress, 'invitee@example.com');
  assert.equal(i.teamId, await myTeamId());
  assert.equal(typeof i.sentAt, 'number');
  assert.equal(typeof i.expiresAt, 'number');
  assert.ok(i.expiresAt > i.sentAt);
});

h.test('teamAddMember of an account without a team by account_id invites it', async () => {
  const { body } = await h.api(TeamApi).teamAddMember({ accountId: FIXTURE.outsider.id });
  const invited = body.team.invitedAccounts.map((a) => a.accountId);
  assert.ok(invited.includes(FIXTURE.outsider.id), JSON.stringify(body.team.invitedAccounts));
  body.team.invitedAccounts.forEach((a) => assert.ok(a instanceof sdk.AccountResponse));
  // The invitee sees the invitation with its own key.
  const theirs = await h.api(TeamApi, { apiKey: await h.keyOf(FIXTURE.outsider.id) }).teamInvites();
  assert.ok(theirs.body.teamInvites.some((x) => x.emailAddress === FIXTURE.outsider.email));
});

h.test('teamAddMember refuses a missing target and a bad role', async () => {
  const api = h.api(TeamApi);
  await expectHttpError(api.teamAddMember({}), { status: 400, errorName: 'bad_request' });
  const teamId = await myTeamId();
  await expectHttpError(api.teamAddMember({ emailAddress: 'r@example.com', role: 'Emperor' }, teamId), { status: 400, errorPath: 'role' });
});

h.test('sub-teams: teamSubTeams lists a sub-team, teamInfo shows its parent', async () => {
  const teamId = await myTeamId();
  const sub = await h.control.post('/teams', { name: 'Sub Team' });
  const { body } = await h.api(TeamApi).teamSubTeams(teamId, 1, 20);
  assert.ok(body instanceof sdk.TeamSubTeamsResponse);
  assert.ok(body.listInfo instanceof sdk.ListInfoResponse);
  assert.equal(body.subTeams.length, 1);
  assert.ok(body.subTeams[0] instanceof sdk.SubTeamResponse);
  assert.equal(body.subTeams[0].teamId, sub.team_id);
  assert.equal(body.subTeams[0].name, 'Sub Team');
  const info = (await h.api(TeamApi).teamInfo(sub.team_id)).body.team;
  assert.equal(info.name, 'Sub Team');
  assert.ok(info.teamParent instanceof sdk.TeamParentResponse);
  assert.equal(info.teamParent.teamId, teamId);
  assert.equal(info.teamParent.name, (await h.api(TeamApi).teamGet()).body.team.name);
  assert.equal((await h.api(TeamApi).teamInfo()).body.team.numSubTeams, 1);

  // Moving the teammate to the sub-team with remove_member new_team_id.
  const moved = await h.api(TeamApi).teamRemoveMember({ emailAddress: FIXTURE.teammate.email, newTeamId: sub.team_id, newRole: 'Member' });
  assert.equal(moved.response.status, 201);
  const subMembers = (await h.api(TeamApi).teamMembers(sub.team_id)).body.teamMembers.map((m) => m.emailAddress);
  assert.deepEqual(subMembers, [FIXTURE.teammate.email]);
});

h.test('teamRemoveMember answers 201 with the team; the member is gone', async () => {
  const w = await h.newWorld();
  const api = h.api(TeamApi, { apiKey: w.api_key });
  const req = new sdk.TeamRemoveMemberRequest();
  req.accountId = FIXTURE.teammate.id;
  const { response, body } = await api.teamRemoveMember(req);
  assert.equal(response.status, 201);
  assert.ok(body instanceof sdk.TeamGetResponse);
  assert.deepEqual(body.team.accounts.map((a) => a.emailAddress), [FIXTURE.owner.email]);
  await expectHttpError(api.teamRemoveMember({ accountId: FIXTURE.owner.id }), { status: 400, errorName: 'bad_request' });
});

h.test('teamCreate for an account without a team, then teamDelete; teamGet is then 404', async () => {
  const api = h.api(TeamApi, { apiKey: await h.keyOf(FIXTURE.outsider.id) });
  await expectHttpError(api.teamGet(), { status: 404, errorName: 'not_found' });
  const req = new sdk.TeamCreateRequest();
  req.name = 'Outsiders';
  const { response, body } = await api.teamCreate(req);
  assert.equal(response.status, 200);
  assert.ok(body instanceof sdk.TeamGetResponse);
  assert.equal(body.team.name, 'Outsiders');
  assert.deepEqual(body.team.accounts.map((a) => a.accountId), [FIXTURE.outsider.id]);
  assert.equal(body.team.accounts[0].roleCode, 'a');
  const del = await api.teamDelete();
  assert.equal(del.response.status, 200);
  await expectHttpError(api.teamGet(), { status: 404, errorName: 'not_found' });
});

h.test('teamCreate by a member of a team is refused; teamDelete with other members is refused', async () => {
  const api = h.api(TeamApi);
  const e1 = await expectHttpError(api.teamCreate({ name: 'Second' }), {});
  assert.ok([400, 403].includes(e1.statusCode), `status ${e1.statusCode}`);
  const e2 = await expectHttpError(api.teamDelete(), {});
  assert.ok([400, 403].includes(e2.statusCode), `status ${e2.statusCode}`);
});

h.test("teamRemoveMember with new_owner_email_address moves the member's requests to the new owner", async () => {
  const w = await h.newWorld();
  const ctl = h.controlFor(w.api_key);
  await ctl.config({ fetch_file_urls: false });
  const { api_keys: keys } = await ctl.get(`/api_keys?account_id=${FIXTURE.teammate.id}`);
  const signer = Object.assign(new sdk.SubSignatureRequestSigner(), { name: 'S', emailAddress: 's@example.com' });
  const sr = (await h.api(sdk.SignatureRequestApi, { apiKey: keys[0].key }).signatureRequestSend({
    title: 'Left behind', signers: [signer], fileUrls: ['https://example.com/l.pdf'], testMode: true,
  })).body.signatureRequest;
  const req = new sdk.TeamRemoveMemberRequest();
  req.emailAddress = FIXTURE.teammate.email;
  req.newOwnerEmailAddress = FIXTURE.owner.email;
  const { response } = await h.api(TeamApi, { apiKey: w.api_key }).teamRemoveMember(req);
  assert.equal(response.status, 201);
  await ctl.advance(60);
  const mine = (await h.api(sdk.SignatureRequestApi, { apiKey: w.api_key }).signatureRequestList()).body.signatureRequests;
  const moved = mine.find((s) => s.signatureRequestId === sr.signatureRequestId);
  assert.ok(moved, 'the request is now listed for the new owner');
  assert.equal(moved.requesterEmailAddress, FIXTURE.owner.email);
});
