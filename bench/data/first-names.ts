// Given names by language group and sex, most frequent first. Oshiwambo families often give a Christian or
// Finnish-missionary name (Toivo, Aune, Taimi) next to an Oshiwambo one; both lists are used for them.

export interface GivenNames {
  female: readonly string[];
  male: readonly string[];
}

export const OSHIWAMBO_GIVEN: GivenNames = {
  female: [
    'Ndapewa', 'Ndeshipanda', 'Nangula', 'Ndinelago', 'Ndahafa', 'Ndapandula', 'Tangeni', 'Panduleni',
    'Magano', 'Ndilimeke', 'Tuyeni', 'Nelago', 'Kaino', 'Iyaloo', 'Ndeshihafela', 'Ndapanda', 'Hafeni',
    'Ndamona', 'Frieda', 'Nailoke', 'Peneyambeko', 'Ndeutala', 'Ndiitah', 'Ndeyapo', 'Shekupe', 'Hambeleleni',
    'Etuhole', 'Nangombe', 'Meameno', 'Ndahambelela', 'Naango', 'Nekwaya', 'Iitula', 'Ndeumana', 'Tuwilika',
  ],
  male: [
    'Tangeni', 'Panduleni', 'Hafeni', 'Nghidipo', 'Natangwe', 'Mekondjo', 'Veiko', 'Penda', 'Shikongeni',
    'Iipinge', 'Kondjeni', 'Ndeshipanda', 'Tulonga', 'Shapumba', 'Nangolo', 'Ndapuka', 'Ndinomupya',
    'Tuhafeni', 'Halleluya', 'Shilongo', 'Omagano', 'Mweneni', 'Kalenga', 'Hamutenya', 'Ndeyapo', 'Nehale',
    'Iilonga', 'Kashona', 'Ndinoshiho', 'Shoombe', 'Tomas',
  ],
};

export const CHRISTIAN_GIVEN: GivenNames = {
  female: [
    'Maria', 'Martha', 'Ester', 'Selma', 'Hilma', 'Anna', 'Johanna', 'Helena', 'Aune', 'Taimi', 'Saima',
    'Foibe', 'Loide', 'Hileni', 'Justina', 'Naemi', 'Ottilie', 'Rauha', 'Secilia', 'Teopolina', 'Albertina',
    'Lahja', 'Emilia', 'Priskila', 'Rosalia', 'Victoria', 'Elizabeth', 'Josephina', 'Paulina', 'Ruusa',
    'Aili', 'Kaarina', 'Linea', 'Wilhelmina', 'Rebekka', 'Hendrina', 'Lucia', 'Tuulikki', 'Monika', 'Sylvia',
  ],
  male: [
    'Johannes', 'Petrus', 'Festus', 'Lazarus', 'Simon', 'Thomas', 'Josef', 'Erastus', 'Immanuel', 'Sakaria',
    'Titus', 'Paulus', 'Matheus', 'Andreas', 'Kristof', 'Jonas', 'Elia', 'Gabriel', 'Nikodemus', 'Fillipus',
    'Toivo', 'Martti', 'Hidipo', 'Abraham', 'Daniel', 'David', 'Samuel', 'Isak', 'Jakob', 'Lukas', 'Moses',
    'Efraim', 'Gideon', 'Absalom', 'Benjamin', 'Ismael', 'Reinhold', 'Hosea', 'Alfeus', 'Zedekia',
  ],
};

export const OTJIHERERO_GIVEN: GivenNames = {
  female: [
    'Uerikua', 'Kaera', 'Ueitjiua', 'Vemuina', 'Uatjiua', 'Tjizembua', 'Kaunapaua', 'Vetaruhe', 'Uaruka',
    'Uerimunika', 'Kavemuii', 'Kamuzeua', 'Tjitjinda', 'Vezemburuka', 'Uakondjisa', 'Katjiro',
  ],
  male: [
    'Vekuii', 'Uazuvara', 'Ueriuka', 'Katuutire', 'Mutjinde', 'Kaembunaa', 'Uatjindua', 'Vetumbuavi',
    'Uaekuta', 'Tjinaani', 'Kaujeua', 'Veripi', 'Uazembua', 'Kauna', 'Zerua', 'Tjikuua',
  ],
};

export const AFRIKAANS_GIVEN: GivenNames = {
  female: [
    'Anna', 'Maria', 'Elize', 'Marietjie', 'Sanet', 'Annelie', 'Hester', 'Susanna', 'Johanna', 'Elmarie',
    'Liezel', 'Carien', 'Ronel', 'Wilma', 'Retha', 'Karin', 'Ilse', 'Chanté', 'Zoë', 'Renée', 'Hélène',
    'Anaïs', 'Elmé', 'Lizette', 'Mariska', 'Annemarie', 'Sunette', 'Rina', 'Magdalena', 'Petronella',
  ],
  male: [
    'Johannes', 'Pieter', 'Jacobus', 'Hendrik', 'Gerhard', 'Andries', 'Willem', 'François', 'André', 'Jaco',
    'Riaan', 'Ruan', 'Stefan', 'Dawid', 'Christo', 'Marthinus', 'Petrus', 'Gert', 'Jan', 'Frikkie', 'Hennie',
    'Ockert', 'Theuns', 'Ettiënne', 'Deon', 'Gideon', 'Wessel', 'Adriaan', 'Barend', 'Chris',
  ],
};

export const GERMAN_GIVEN: GivenNames = {
  female: [
    'Ursula', 'Ingrid', 'Heike', 'Sabine', 'Gisela', 'Brigitte', 'Monika', 'Jutta', 'Anke', 'Silke', 'Käthe',
    'Lena', 'Hanna', 'Lea', 'Jördis', 'Almut', 'Dörte', 'Friederike', 'Marlene', 'Annegret',
  ],
  male: [
    'Jürgen', 'Günther', 'Klaus', 'Wolfgang', 'Dieter', 'Hans', 'Uwe', 'Helmut', 'Horst', 'Björn', 'Jörg',
    'Rüdiger', 'Matthias', 'Sören', 'Tobias', 'Lukas', 'Malte', 'Volker', 'Hartmut', 'Götz',
  ],
};

export const ENGLISH_GIVEN: GivenNames = {
  female: [
    'Elizabeth', 'Mary', 'Sarah', 'Emma', 'Olivia', 'Jessica', 'Grace', 'Chloe', 'Hannah', 'Charlotte',
    'Sophie', 'Amy', 'Rachel', 'Rebecca', 'Michelle', 'Precious', 'Faith', 'Blessing', 'Patience', 'Gloria',
  ],
  male: [
    'John', 'James', 'David', 'Michael', 'Robert', 'William', 'Richard', 'Thomas', 'Peter', 'Paul', 'Mark',
    'Daniel', 'Matthew', 'George', 'Brian', 'Kevin', 'Justice', 'Godfrey', 'Innocent', 'Bernard',
  ],
};
