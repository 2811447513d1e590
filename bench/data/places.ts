// Towns of Namibia with their region and a rough share of the population living around them.

export interface Town {
  town: string;
  region: string;
  /** Relative population weight. */
  weight: number;
  /** Rural villages near the town, used for addresses outside the town itself. */
  villages?: readonly string[];
}

export const TOWNS: readonly Town[] = [
  { town: 'Windhoek', region: 'Khomas', weight: 430 },
  { town: 'Walvis Bay', region: 'Erongo', weight: 100 },
  { town: 'Swakopmund', region: 'Erongo', weight: 75 },
  { town: 'Henties Bay', region: 'Erongo', weight: 6 },
  { town: 'Omaruru', region: 'Erongo', weight: 7 },
  { town: 'Usakos', region: 'Erongo', weight: 4 },
  { town: 'Karibib', region: 'Erongo', weight: 5 },
  { town: 'Arandis', region: 'Erongo', weight: 6 },
  { town: 'Oshakati', region: 'Oshana', weight: 60, villages: ['Okandjengedi', 'Ehenye', 'Ompumbu', 'Evululuko'] },
  { town: 'Ondangwa', region: 'Oshana', weight: 45, villages: ['Omashaka', 'Onguta', 'Okangwena'] },
  { town: 'Ongwediva', region: 'Oshana', weight: 40, villages: ['Ondjondjo', 'Oneshila'] },
  { town: 'Uukwangula', region: 'Oshana', weight: 15, villages: ['Okalondo', 'Ekamba'] },
  { town: 'Eenhana', region: 'Ohangwena', weight: 40, villages: ['Oshilunga', 'Omhito', 'Ohaukelo'] },
  { town: 'Helao Nafidi', region: 'Ohangwena', weight: 45, villages: ['Oshikango', 'Omafo', 'Ohenghono'] },
  { town: 'Okongo', region: 'Ohangwena', weight: 25, villages: ['Omauni', 'Ekoka'] },
  { town: 'Ohangwena', region: 'Ohangwena', weight: 30, villages: ['Endola', 'Ongenga', 'Odibo'] },
  { town: 'Outapi', region: 'Omusati', weight: 45, villages: ['Onawa', 'Onandjandja', 'Ombalantu'] },
  { town: 'Okahao', region: 'Omusati', weight: 30, villages: ['Otamanzi', 'Onaanda'] },
  { town: 'Ruacana', region: 'Omusati', weight: 10, villages: ['Otjomakuru'] },
  { town: 'Tsandi', region: 'Omusati', weight: 25, villages: ['Onesi', 'Uukwaluudhi'] },
  { town: 'Oshikuku', region: 'Omusati', weight: 25, villages: ['Elim', 'Okalongo', 'Ogongo'] },
  { town: 'Tsumeb', region: 'Oshikoto', weight: 35 },
  { town: 'Omuthiya', region: 'Oshikoto', weight: 30, villages: ['Onyuulaye', 'Okankolo'] },
  { town: 'Oniipa', region: 'Oshikoto', weight: 25, villages: ['Onayena', 'Onathinge', 'Olukonda'] },
  { town: 'Rundu', region: 'Kavango East', weight: 90, villages: ['Kaisosi', 'Sauyemwa', 'Kehemu'] },
  { town: 'Divundu', region: 'Kavango East', weight: 15, villages: ['Andara', 'Mukwe'] },
  { town: 'Nkurenkuru', region: 'Kavango West', weight: 30, villages: ['Mpungu', 'Kahenge'] },
  { town: 'Katima Mulilo', region: 'Zambezi', weight: 45, villages: ['Bukalo', 'Sibbinda', 'Ngoma'] },
  { town: 'Otjiwarongo', region: 'Otjozondjupa', weight: 35 },
  { town: 'Okahandja', region: 'Otjozondjupa', weight: 30 },
  { town: 'Grootfontein', region: 'Otjozondjupa', weight: 25 },
  { town: 'Okakarara', region: 'Otjozondjupa', weight: 15, villages: ['Otjinene', 'Okamatapati'] },
  { town: 'Otavi', region: 'Otjozondjupa', weight: 8 },
  { town: 'Gobabis', region: 'Omaheke', weight: 25, villages: ['Epukiro', 'Aminuis'] },
  { town: 'Otjinene', region: 'Omaheke', weight: 8 },
  { town: 'Leonardville', region: 'Omaheke', weight: 4 },
  { town: 'Opuwo', region: 'Kunene', weight: 20, villages: ['Okangwati', 'Etanga', 'Otjikojo'] },
  { town: 'Outjo', region: 'Kunene', weight: 10 },
  { town: 'Khorixas', region: 'Kunene', weight: 10, villages: ['Fransfontein', 'Sesfontein'] },
  { town: 'Kamanjab', region: 'Kunene', weight: 5 },
  { town: 'Mariental', region: 'Hardap', weight: 15 },
  { town: 'Rehoboth', region: 'Hardap', weight: 30 },
  { town: 'Aranos', region: 'Hardap', weight: 5 },
  { town: 'Maltahöhe', region: 'Hardap', weight: 4 },
  { town: 'Gibeon', region: 'Hardap', weight: 4 },
  { town: 'Keetmanshoop', region: '//Karas', weight: 22 },
  { town: 'Lüderitz', region: '//Karas', weight: 13 },
  { town: 'Karasburg', region: '//Karas', weight: 7 },
  { town: 'Oranjemund', region: '//Karas', weight: 6 },
  { town: 'Bethanie', region: '//Karas', weight: 3 },
];

/** Which regions each language group mostly lives in (relative factor applied to the town weight; 1 when absent). */
export const REGION_AFFINITY: Record<string, Record<string, number>> = {
  oshiwambo: { Oshana: 6, Ohangwena: 6, Omusati: 6, Oshikoto: 5, Khomas: 1.2, Erongo: 0.8, 'Kavango East': 0.3, 'Kavango West': 0.3, Zambezi: 0.1, Hardap: 0.1, '//Karas': 0.2, Omaheke: 0.2, Kunene: 0.4 },
  otjiherero: { Otjozondjupa: 6, Omaheke: 6, Kunene: 5, Khomas: 1.2, Oshana: 0.05, Ohangwena: 0.02, Omusati: 0.05, Oshikoto: 0.2, Zambezi: 0.02, 'Kavango East': 0.1 },
  khoekhoe: { Hardap: 6, '//Karas': 6, Kunene: 4, Erongo: 3, Khomas: 1, Oshana: 0.02, Ohangwena: 0.01, Omusati: 0.02, Zambezi: 0.02 },
  afrikaans: { Khomas: 2, Hardap: 4, '//Karas': 4, Erongo: 2, Oshana: 0.05, Ohangwena: 0.02, Omusati: 0.02, Zambezi: 0.05, 'Kavango East': 0.1 },
  german: { Khomas: 3, Erongo: 4, Otjozondjupa: 1, Oshana: 0.02, Ohangwena: 0.01, Omusati: 0.01, Zambezi: 0.02, 'Kavango East': 0.05 },
  english: { Khomas: 3, Erongo: 2, Zambezi: 2, 'Kavango East': 1.5 },
};

export const STREETS = [
  'Independence Avenue', 'Sam Nujoma Drive', 'Mandume Ndemufayo Avenue', 'Robert Mugabe Avenue',
  'Hosea Kutako Drive', 'Nelson Mandela Avenue', 'Hage Geingob Street', 'Florence Nightingale Street',
  'Bismarck Street', 'Moltke Street', 'Main Road', 'Church Street', 'Station Street', 'Hendrik Witbooi Street',
  'Theo-Ben Gurirab Street', 'Fidel Castro Street', 'Nangolo Mbumba Drive', 'Libertine Amathila Street',
  'Dr Frans Indongo Street', 'Eugène Marais Street', 'Schanzen Road', 'Tal Street', 'Sauer Street',
  'Klein Windhoek Road', 'Omuvapu Street', 'Monte Christo Road', 'Okahandja Road', 'Mose Tjitendero Street',
  'Kaiser Wilhelm Straße', 'Hafen Street', 'Rev. Michael Scott Street', 'Simeon Shixungileni Street',
];
