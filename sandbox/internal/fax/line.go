package fax

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/team"
)

// Fax lines: numbers an account buys in an area code and shares with
// members of its team. A line is visible to the accounts on it and to the
// owner's teammates (show_team_lines); it is managed (users added or removed,
// deleted) by its owner and the Admins of the owner's team.

// registerLines adds the fax line operations.
func registerLines(r *api.Registry) {
	r.Handle("faxLineAreaCodeGet", faxLineAreaCodeGet)
	r.Handle("faxLineCreate", faxLineCreate)
	r.Handle("faxLineGet", faxLineGet)
	r.Handle("faxLineDelete", faxLineDelete)
	r.Handle("faxLineList", faxLineList)
	r.Handle("faxLineAddUser", faxLineAddUser)
	r.Handle("faxLineRemoveUser", faxLineRemoveUser)
}

type faxLineAreaCodeQuery struct {
	Country  string `json:"country"`
	State    string `json:"state"`
	Province string `json:"province"`
	City     string `json:"city"`
}

func checkFaxCountry(v string) error {
	if v == "" {
		return apierr.Missing("country")
	}
	if !slices.Contains(faxCountries, v) {
		return apierr.Badf("country", "Invalid country %q: use CA, US or UK.", v)
	}
	return nil
}

// region validates state (US only) and province (CA only).
func (q faxLineAreaCodeQuery) region() (string, error) {
	if q.State != "" {
		if q.Country != "US" {
			return "", apierr.Badf("state", "state is only used with country US; use province for CA.")
		}
		if _, ok := usAreaCodes[q.State]; !ok {
			return "", apierr.Badf("state", "Invalid state %q: use a two-letter US state code such as CA or NY.", q.State)
		}
		return q.State, nil
	}
	if q.Province != "" {
		if q.Country != "CA" {
			return "", apierr.Badf("province", "province is only used with country CA; use state for US.")
		}
		if _, ok := caAreaCodes[q.Province]; !ok {
			return "", apierr.Badf("province", "Invalid province %q: use a two-letter Canadian province code such as ON or BC.", q.Province)
		}
		return q.Province, nil
	}
	return "", nil
}

// faxLineAreaCodeGet lists the area codes with numbers available.
func faxLineAreaCodeGet(c *api.Call) (any, error) {
	var q faxLineAreaCodeQuery
	if err := c.Query(&q); err != nil {
		return nil, err
	}
	if err := checkFaxCountry(q.Country); err != nil {
		return nil, err
	}
	region, err := q.region()
	if err != nil {
		return nil, err
	}
	return faxLineAreaCodeGetResponse{AreaCodes: areaCodes(q.Country, region, q.City)}, nil
}

// normalizeFaxNumber keeps the digits of a number; a ten-digit number is a
// North American one without its country code.
func normalizeFaxNumber(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	d := b.String()
	if len(d) == 10 {
		d = "1" + d
	}
	return d
}

// newFaxNumber picks an unused number in an area code: 1 NXX 555 XXXX in
// North America, +44 with the fictional 7946 / 496 ranges in the UK.
func newFaxNumber(tx *state.Txn, country string, area int) (string, error) {
	for range 100 {
		n, _ := strconv.ParseUint(tx.NewID()[:8], 16, 64)
		var num string
		if country == "UK" {
			a, mid := strconv.Itoa(area), "496"
			if area == 20 {
				mid = "7946"
			}
			rest := 10 - len(a) - len(mid)
			mod := uint64(1)
			for range rest {
				mod *= 10
			}
			num = fmt.Sprintf("44%s%s%0*d", a, mid, rest, n%mod)
		} else {
			num = fmt.Sprintf("1%03d555%04d", area, n%10000)
		}
		if _, err := state.Get[model.FaxLine](tx, state.TableFaxLines, num); err != nil {
			return num, nil
		}
	}
	return "", apierr.Conflictf("No more fax numbers are available in area code %d.", area)
}

type faxLineCreateRequest struct {
	AreaCode  *int   `json:"area_code"`
	Country   string `json:"country"`
	City      string `json:"city"`
	AccountID string `json:"account_id"`
}

// faxLineAccount finds the account named by account_id for a fax line call:
// the caller when empty; 404 when unknown; 403 when it is neither the caller
// nor a teammate.
func faxLineAccount(tx *state.Txn, me *model.Account, id string) (*model.Account, error) {
	if id == "" || id == me.ID {
		return me, nil
	}
	a, err := state.Get[model.Account](tx, state.TableAccounts, id)
	if err != nil {
		return nil, apierr.NotFoundf("Account not found.").WithPath("account_id")
	}
	if me.TeamID == "" || a.TeamID != me.TeamID {
		return nil, apierr.Forbiddenf("account_id must be your own account or a member of your Team.").WithPath("account_id")
	}
	return a, nil
}

// faxLineCreate buys a line in an area code for the caller or a teammate.
func faxLineCreate(c *api.Call) (any, error) {
	var req faxLineCreateRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	if req.AreaCode == nil {
		return nil, apierr.Missing("area_code")
	}
	if err := checkFaxCountry(req.Country); err != nil {
		return nil, err
	}
	area := *req.AreaCode
	if !slices.Contains(regionCodes(req.Country, ""), area) {
		return nil, apierr.Badf("area_code", "No fax numbers are available in area code %d (%s); GET /fax_line/area_codes lists the available ones.", area, req.Country)
	}
	if req.City != "" && !slices.Contains(cityCodes(req.Country, "", req.City), area) {
		return nil, apierr.Badf("city", "Area code %d does not serve %s; GET /fax_line/area_codes?city=... lists the codes of a city.", area, req.City)
	}
	var out faxLineResponse
	err := c.Update(func(tx *state.Txn) error {
		me, err := api.ReloadCaller(c, tx)
		if err != nil {
			return err
		}
		owner, err := faxLineAccount(tx, me, req.AccountID)
		if err != nil {
			return err
		}
		num, err := newFaxNumber(tx, req.Country, area)
		if err != nil {
			return err
		}
		line := &model.FaxLine{
			Number: num, Country: req.Country, AreaCode: area, City: req.City, OwnerAccountID: owner.ID,
			AccountIDs: []string{owner.ID}, CreatedAt: tx.Unix(), UpdatedAt: tx.Unix(), Seq: tx.Seq(),
		}
		if err := state.Put(tx, state.TableFaxLines, line); err != nil {
			return err
		}
		out = faxLineResponse{FaxLine: viewFaxLine(tx, line)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// faxLineVisible reports whether me may see a line.
func faxLineVisible(tx *state.Txn, me *model.Account, l *model.FaxLine) bool {
	if l.HasAccount(me.ID) {
		return true
	}
	owner, err := state.Get[model.Account](tx, state.TableAccounts, l.OwnerAccountID)
	return err == nil && me.TeamID != "" && owner.TeamID == me.TeamID
}

// faxLineFor finds the line of number for me: 400 without a number, 404
// when unknown, 403 when not visible or (manage) not manageable.
func faxLineFor(tx *state.Txn, me *model.Account, number string, manage bool) (*model.FaxLine, error) {
	if strings.TrimSpace(number) == "" {
		return nil, apierr.Missing("number")
	}
	l, err := state.Get[model.FaxLine](tx, state.TableFaxLines, normalizeFaxNumber(number))
	if err != nil {
		return nil, apierr.NotFoundf("Fax line not found.").WithPath("number")
	}
	if !faxLineVisible(tx, me, l) {
		return nil, apierr.Forbiddenf("You do not have access to this fax line.").WithPath("number")
	}
	if manage && me.ID != l.OwnerAccountID {
		owner, err := state.Get[model.Account](tx, state.TableAccounts, l.OwnerAccountID)
		if err != nil || me.RoleCode != "a" || owner.TeamID != me.TeamID {
			return nil, apierr.Forbiddenf("Only the owner of a fax line or an Admin of their Team can change it.").WithPath("number")
		}
	}
	return l, nil
}

type faxLineNumberQuery struct {
	Number string `json:"number"`
}

// faxLineGet answers one line.
func faxLineGet(c *api.Call) (any, error) {
	var q faxLineNumberQuery
	if err := c.Query(&q); err != nil {
		return nil, err
	}
	tx := c.Read()
	me, err := api.ReloadCaller(c, tx)
	if err != nil {
		return nil, err
	}
	l, err := faxLineFor(tx, me, q.Number, false)
	if err != nil {
		return nil, err
	}
	return faxLineResponse{FaxLine: viewFaxLine(tx, l)}, nil
}

// faxLineDelete releases a line: 200 with an empty JSON body.
func faxLineDelete(c *api.Call) (any, error) {
	var req faxLineNumberQuery
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	err := c.Update(func(tx *state.Txn) error {
		me, err := api.ReloadCaller(c, tx)
		if err != nil {
			return err
		}
		l, err := faxLineFor(tx, me, req.Number, true)
		if err != nil {
			return err
		}
		return tx.Delete(state.TableFaxLines, l)
	})
	if err != nil {
		return nil, err
	}
	return api.EmptyOK(), nil
}

type faxLineListQuery struct {
	Page          *int   `json:"page"`
	PageSize      *int   `json:"page_size"`
	AccountID     string `json:"account_id"`
	ShowTeamLines bool   `json:"show_team_lines"`
}

// faxLineList lists the lines of an account (the caller or a teammate),
// with show_team_lines also those of its teammates, newest first.
func faxLineList(c *api.Call) (any, error) {
	var q faxLineListQuery
	if err := c.Query(&q); err != nil {
		return nil, err
	}
	page, size, err := api.PagingQuery{Page: q.Page, PageSize: q.PageSize}.Bounds()
	if err != nil {
		return nil, err
	}
	tx := c.Read()
	me, err := api.ReloadCaller(c, tx)
	if err != nil {
		return nil, err
	}
	acct, err := faxLineAccount(tx, me, q.AccountID)
	if err != nil {
		return nil, err
	}
	all, err := state.AllFaxLines(tx)
	if err != nil {
		return nil, err
	}
	var lines []*model.FaxLine
	for i := len(all) - 1; i >= 0; i-- {
		l := all[i]
		if l.HasAccount(acct.ID) {
			lines = append(lines, l)
			continue
		}
		if q.ShowTeamLines && acct.TeamID != "" {
			if owner, err := state.Get[model.Account](tx, state.TableAccounts, l.OwnerAccountID); err == nil && owner.TeamID == acct.TeamID {
				lines = append(lines, l)
			}
		}
	}
	rows, info := api.PageSlice(lines, page, size)
	out := faxLineListResponse{ListInfo: info, FaxLines: []faxLineView{}}
	for _, l := range rows {
		out.FaxLines = append(out.FaxLines, viewFaxLine(tx, l))
	}
	return out, nil
}

type faxLineUserRequest struct {
	Number string `json:"number"`
	team.MemberRef
}

// user finds the account of an add_user / remove_user call (account_id
// prevails over email_address), and the parameter that named it.
func (r faxLineUserRequest) user(tx *state.Txn) (*model.Account, string, error) {
	a, _, err := r.Target(tx)
	if err == nil && a == nil {
		err = apierr.NotFoundf("No account has the address %s.", r.EmailAddress).WithPath("email_address")
	}
	return a, r.Path(), err
}

func (r faxLineUserRequest) check() error {
	if strings.TrimSpace(r.Number) == "" {
		return apierr.Missing("number")
	}
	return r.MemberRef.Check()
}

// changeFaxLineUsers runs an add_user or remove_user call.
func changeFaxLineUsers(c *api.Call, change func(l *model.FaxLine, owner, target *model.Account, path string) error) (any, error) {
	var req faxLineUserRequest
	if err := c.Bind(&req); err != nil {
		return nil, err
	}
	if err := req.check(); err != nil {
		return nil, err
	}
	var out faxLineResponse
	err := c.Update(func(tx *state.Txn) error {
		me, err := api.ReloadCaller(c, tx)
		if err != nil {
			return err
		}
		cur, err := faxLineFor(tx, me, req.Number, true)
		if err != nil {
			return err
		}
		target, path, err := req.user(tx)
		if err != nil {
			return err
		}
		owner, err := state.Get[model.Account](tx, state.TableAccounts, cur.OwnerAccountID)
		if err != nil {
			return apierr.NotFoundf("The owner of this fax line no longer exists.")
		}
		l := state.Clone(cur)
		l.AccountIDs = append([]string{}, cur.AccountIDs...)
		if err := change(l, owner, target, path); err != nil {
			return err
		}
		if !slices.Equal(l.AccountIDs, cur.AccountIDs) {
			l.UpdatedAt = tx.Unix()
			if err := state.Put(tx, state.TableFaxLines, l); err != nil {
				return err
			}
		} else {
			l = cur
		}
		out = faxLineResponse{FaxLine: viewFaxLine(tx, l)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// faxLineAddUser gives a member of the owner's team access to a line
// (unchanged when they already have it).
func faxLineAddUser(c *api.Call) (any, error) {
	return changeFaxLineUsers(c, func(l *model.FaxLine, owner, target *model.Account, path string) error {
		if target.ID != owner.ID && (owner.TeamID == "" || target.TeamID != owner.TeamID) {
			return apierr.Forbiddenf("A fax line can only be shared with members of its owner's Team.").WithPath(path)
		}
		if !l.HasAccount(target.ID) {
			l.AccountIDs = append(l.AccountIDs, target.ID)
		}
		return nil
	})
}

// faxLineRemoveUser takes an account's access to a line away; the owner
// cannot be removed.
func faxLineRemoveUser(c *api.Call) (any, error) {
	return changeFaxLineUsers(c, func(l *model.FaxLine, owner, target *model.Account, path string) error {
		if target.ID == owner.ID {
			return apierr.Badf(path, "The owner of a fax line cannot be removed from it.")
		}
		i := slices.Index(l.AccountIDs, target.ID)
		if i < 0 {
			return apierr.Badf(path, "%s does not have access to this fax line.", target.Email)
		}
		l.AccountIDs = slices.Delete(l.AccountIDs, i, i+1)
		return nil
	})
}
