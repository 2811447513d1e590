// GET /api/defaulters (issue 25 item 3, decision 044): the children of one's own facility overdue for a dose due in
// a date range, with contact details and the last visit, read from the defaulter index in one statement. It reveals
// patients, so it is audited like a search (SEARCH PATIENT naming the criteria and every patient listed).
import { todayIso } from '../../../contracts/calendar';
import { DEFAULTERS_LIMIT, type DefaultersQuery, type DefaultersResponse } from '../../../contracts/immunization';
import { actorRoleAtTheTime, type StaffActor } from '../../context/actor';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import { primaryReads, type ReadResult, type ReadDb } from '../../db/read-db';
import { AppError } from '../../errors/app-error';
import { selectDefaulters } from './immunization-due.repository';
import { currentSchedule } from './schedule.service';

/**
 * How far behind the primary a standby may be for a defaulter list (decision 058): fifteen minutes. The list is a day's
 * calling list; a dose given in the last minutes may still show its child as overdue, as the clinic's own card shows
 * it given. The answer says how fresh it is (X-Data-As-Of); a standby further behind is passed over for the primary.
 */
export const DEFAULTERS_MAX_STALENESS_MS = 15 * 60_000;

/**
 * 403 DEFAULTERS_OTHER_FACILITY for a facility other than the staff member's own. The list is read on `reads` (the
 * standby, decision 058; the primary by default); its audit row is written on the primary before it is answered.
 */
export async function listDefaulters(
  c: RequestScope<StaffActor>,
  q: DefaultersQuery,
  reads: ReadDb = primaryReads(c.db),
): Promise<ReadResult<DefaultersResponse>> {
  if (c.actor.facility === null || c.actor.facility.trim().toLowerCase() !== q.facility.toLowerCase())
    throw new AppError('DEFAULTERS_OTHER_FACILITY', 'Defaulter lists are for your own facility only', {
      details: { facility: q.facility },
    });
  const schedule = await currentSchedule(c.db);
  const today = todayIso(c.now);
  const facility = c.actor.facility.trim();
  const { value: rows, freshness } = await reads.snapshot(DEFAULTERS_MAX_STALENESS_MS, (tx) =>
    selectDefaulters(tx, { facility, from: q.from, to: q.to, today, limit: DEFAULTERS_LIMIT + 1 }),
  );
  const value = await inAuditedTransaction(c, async (ctx) => {
    const defaulters = rows.slice(0, DEFAULTERS_LIMIT);
    const answer: DefaultersResponse = {
      facility,
      from: q.from,
      to: q.to,
      today,
      scheduleVersion: schedule.version,
      defaulters,
      truncated: rows.length > DEFAULTERS_LIMIT,
    };
    return ctx.audited(answer, {
      action: 'SEARCH',
      resourceType: 'PATIENT',
      patientId: defaulters.length === 1 ? defaulters[0]!.patientId : null,
      newValues: {
        criteria: { method: 'defaulters', facility, from: q.from, to: q.to, format: q.format },
        resultCount: defaulters.length,
        patientIds: defaulters.map((d) => d.patientId),
        role: actorRoleAtTheTime(c.actor),
      },
    });
  });
  return { value, freshness };
}

const csvCell = (value: string | null): string => {
  const text = value ?? '';
  // A cell a spreadsheet would run as a formula starts with a quote (CSV injection).
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The list as CSV (one line per child; the overdue doses joined), with a header row. */
export function defaultersCsv(list: DefaultersResponse): string {
  const header = [
    'patient_id',
    'last_name',
    'first_name',
    'date_of_birth',
    'contact_number',
    'next_of_kin',
    'next_of_kin_contact',
    'last_visit',
    'facility',
    'overdue',
  ];
  const lines = list.defaulters.map((d) =>
    [
      String(d.patientId),
      d.lastName,
      d.firstName,
      d.dateOfBirth,
      d.contactNumber,
      d.nextOfKin,
      d.nextOfKinContact,
      d.lastVisit,
      d.lastFacility,
      d.overdue.map((o) => `${o.name} (${o.dueDate})`).join('; '),
    ]
      .map(csvCell)
      .join(','),
  );
  return [header.join(','), ...lines].join('\r\n') + '\r\n';
}
