// Surnames by language group, most frequent first (a rank-based weight is applied by the generator).
// Real Namibian surnames; spellings with diacritics, particles and click letters are kept as people write them.

export const OSHIWAMBO_SURNAMES = [
  'Shikongo', 'Nangolo', 'Amutenya', 'Haufiku', 'Iipumbu', 'Shilongo', 'Nghipondoka', 'Amadhila', 'Angula',
  'Ithana', 'Hamutenya', 'Nakale', 'Shivute', 'Shipanga', 'Iyambo', 'Shaanika', 'Nghiwete', 'Haikali',
  'Shaduka', 'Shiimi', 'Kashikola', 'Akwenye', 'Ashipala', 'Amupanda', 'Kamati', 'Hango', 'Ndeitunga',
  'Shilunga', 'Nekongo', 'Nandi', 'Nangombe', 'Haimbodi', 'Amunyela', 'Uugwanga', 'Kalola', 'Kaapanda',
  'Namene', 'Heita', 'Indongo', 'Ekandjo', 'Shigwedha', 'Ndilula', 'Amukwaya', 'Nambinga', 'Kapuka',
  'Hauwanga', 'Shindume', 'Namupala', 'Uushona', 'Nghifikwa', 'Nujoma', 'Nghidinwa', 'Kandume', 'Nambahu',
  'Amukoto', 'Nghishidimbwa', 'Shikwambi', 'Nghipangelwa', 'Nghixulifwa', 'Hamunyela', 'Mweshipandeka',
  'Ndjaba', 'Shaningwa', 'Iithete', 'Nakanyala', 'Ipinge', 'Namwandi', 'Amwaama', 'Shiweda', 'Haipinge',
  'Kaulinge', 'Namises', 'Nghaamwa', 'Shapwanale', 'Nghinamundova', 'Hamukwaya', 'Nashandi', 'Uusiku',
  'Shitaleni', 'Kanime', 'Nghaifea', 'Shimwooshili', 'Iilonga', 'Amushila', 'Hangula', 'Namoloh',
  'Ya Toivo', 'Shinana', 'Mbango', 'Lungameni', 'Nambundunga', 'Iitula', 'Haufiku-Nangolo', 'Shipena',
  'Amakali', 'Kambonde', 'Nghiyalwa', 'Nekundi', 'Shinyemba', 'Nghiishililwa', 'Hafeni', 'Ashikoto',
  'Nghipunya', 'Shafashike', 'Ngheendelwa', 'Kaukungua', 'Elago', 'Mbidi', 'Amunime', 'Nghuushi',
  'Shuuveni', 'Namalenga', 'Ndakolo', 'Kalimbo', 'Iiyambo', 'Hamalwa', 'Nghitila', 'Shikesho', 'Aluvilu',
];

export const OTJIHERERO_SURNAMES = [
  'Kandjii', 'Katjiuongua', 'Tjiriange', 'Kaura', 'Kazenambo', 'Tjivikua', 'Hoveka', 'Mbuende', 'Kauaria',
  'Tjipueja', 'Maharero', 'Kapuuo', 'Riruako', 'Tjitendero', 'Kambatuku', 'Katjivena', 'Tjihuiko',
  'Muharukua', 'Hengari', 'Kaputu', 'Karuaihe', 'Tjikuua', 'Kahuure', 'Ngaujake', 'Kavari', 'Tjombe',
  'Mbaeva', 'Kandovazu', 'Tjozongoro', 'Kaizemi', 'Uaandja', 'Katjimune', 'Tjiueza', 'Kasupi', 'Tjingaete',
  'Mungunda', 'Katjavivi', 'Muinjangue', 'Tjiramba', 'Karuombe', 'Ndjoze', 'Hijarunguru', 'Tjaronda',
  'Kandjoze', 'Zaire', 'Kaakunga', 'Tjituka', 'Mutjavikua', 'Kauvee', 'Tjatjitua',
];

/** Nama and Damara (Khoekhoegowab) surnames, some written with click letters (!, //, ǂ). */
export const KHOEKHOE_SURNAMES = [
  'Gaoseb', 'Hoebeb', 'Gariseb', 'Awases', '!Naruseb', 'Goagoses', 'Geingob', '//Hoebes', 'Gowases', 'Tsuses',
  'Haoses', 'Ganeb', 'Khaxas', 'Eiseb', 'Gurirab', 'Kharigub', 'Uirab', 'Seibeb', 'Ochurub', 'Nawaseb',
  'Gaweseb', 'ǂGaeb', 'Hoaeb', 'Garoës', 'Tsowases', 'Naobeb', 'Hanse-Himarwa', 'Witbooi', 'Swartbooi',
  'Boois', 'Isaak', 'Kooper', 'Rooi', 'Frederick', 'Beukes', 'Hendrik', 'Goliath', 'Bock',
];

export const AFRIKAANS_SURNAMES = [
  'van Wyk', 'van der Merwe', 'Botha', 'Pretorius', 'Louw', 'Coetzee', 'Steenkamp', 'Beukes', 'Cloete',
  'Isaacks', 'Jacobs', 'Bezuidenhout', 'Nel', 'du Toit', 'de Klerk', 'Kotzé', 'Mostert', 'van Rooyen',
  'du Plessis', 'Engelbrecht', 'Fourie', 'Visser', 'Smit', 'Venter', 'Strydom', 'Hanekom', 'Mouton',
  'le Roux', 'Jansen', 'Olivier', 'Cronjé', 'van Zyl', 'Kruger', 'Basson', 'Diergaardt', 'Gertze', 'Adams',
  'Hendricks', 'Fredericks', 'Esterhuizen', 'Labuschagne', 'van Heerden', 'Brand', 'Loubser', 'Burger',
  'Snyman', 'Joubert', 'Vermeulen', 'Oosthuizen', 'Grobler', 'Human', 'Maritz', 'Marais', 'Swanepoel',
  'van den Berg', 'Potgieter', 'Kriel', 'de Villiers', 'Theron', 'Bosman', 'Genis', 'Bekker', 'Rossouw',
  'Koopman', 'Christiaan', 'Cupido', 'Links', 'Afrikaner', 'McNab', 'Diergaardt-Beukes', 'Möller',
];

export const GERMAN_SURNAMES = [
  'Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann',
  'Schäfer', 'Koch', 'Bauer', 'Richter', 'Klein', 'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Zimmermann',
  'Braun', 'Krüger', 'Hartmann', 'Lange', 'Voigts', 'Gürtler', 'Straßer', 'von Finckenstein', 'Böhm',
  'Hälbich', 'Kessler', 'Mertens', 'Behnsen', 'Hinrichsen', 'Erb', 'Schlettwein', 'Diekmann', 'Könnecke',
  'Weiß', 'Jürgens', 'Kühn', 'Hübner', 'Görtz', 'Rust', 'Denker', 'von Schumann',
];

export const ENGLISH_SURNAMES = [
  'Smith', 'Brown', 'Johnson', 'Williams', 'Jones', 'Taylor', 'Davis', 'Wilson', 'Evans', 'Thomas',
  'Roberts', 'Walker', 'Wright', 'Thompson', 'White', 'Hughes', 'Edwards', 'Green', 'Hall', 'Wood',
  'Harris', 'Clarke', 'Jackson', 'Turner', 'Hill', 'Moore', 'Cooper', 'Ward', 'Morris', 'King', 'Baker',
  'Lewis', 'Scott', 'Young', 'Allen', 'Mitchell', 'Carter', 'Phillips', 'Campbell', 'Parker', 'Bell',
  "O'Brien", "O'Neill", 'McDonald', 'Pearson', 'Fraser', 'Gibson', 'Murray',
];
