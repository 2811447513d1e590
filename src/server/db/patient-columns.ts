// The patient's demographics as a column selection, for the repositories that read them (record access, portal).
import { patients } from './schema';

export const patientDetailsColumns = {
  id: patients.id,
  firstName: patients.firstName,
  lastName: patients.lastName,
  dateOfBirth: patients.dateOfBirth,
  sex: patients.sex,
  idNumber: patients.idNumber,
  contactNumber: patients.contactNumber,
  address: patients.address,
  nextOfKin: patients.nextOfKin,
  nextOfKinContact: patients.nextOfKinContact,
};
