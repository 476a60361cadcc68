/**
 * Personal-name words shared by very many people: the most frequent given names and surnames of the
 * cultures the lists and their users' parties come from. A hit resting on these words alone ("Antonio
 * Rodriguez" within "Antonio Rodríguez Hernández") says little about identity, so the score discounts a
 * partial match whose every matched word is one of them (see score.ts). Exact names are never discounted.
 *
 * Each group is taken from the head of a published frequency ranking (normalized as the screen normalizes:
 * lower case, no diacritics); a spelling the lists use beside it is added where romanizations differ.
 */

const GROUPS: Record<string, string> = {
  // Spain: INE, "Nombres y apellidos más frecuentes" (population register, 2023), the top given names of men
  // and women and the top 25 surnames. https://www.ine.es/dyngs/INEbase/es/operacion.htm?c=Estadistica_C&cid=1254736177009
  spain:
    "antonio jose manuel francisco david juan javier daniel carlos jesus alejandro miguel rafael pedro angel pablo luis maria carmen ana laura pilar dolores isabel josefa marta cristina lucia " +
    "garcia rodriguez gonzalez fernandez lopez martinez sanchez perez gomez martin jimenez ruiz hernandez diaz moreno munoz alvarez romero alonso gutierrez navarro torres dominguez vazquez ramos",
  // Mexico and Latin America: INEGI given names and surnames most registered (Mexico), the same head plus these.
  // https://www.inegi.org.mx/
  latin_america: "guadalupe juana margarita flores ramirez cruz reyes morales ortiz castillo chavez mendoza",
  // United States: Census Bureau, frequently occurring surnames of the 2010 census (top 25), and Social Security
  // Administration, top names of the last 100 years (top 15 of each sex).
  // https://www.census.gov/topics/population/genealogy/data/2010_surnames.html
  // https://www.ssa.gov/oact/babynames/decades/century.html
  united_states:
    "smith johnson williams brown jones miller davis wilson anderson thomas taylor moore jackson lee thompson white harris " +
    "james john robert michael william richard joseph charles christopher matthew anthony mark mary patricia jennifer linda elizabeth barbara susan jessica sarah karen nancy lisa betty",
  // Arab countries: the most frequent forenames of Egypt and Saudi Arabia (Forebears, forename frequency), which
  // also serve as family names (nasab), in the spellings the lists use. https://forebears.io/egypt/forenames
  arabic:
    "mohamed mohammed muhammad mohammad ahmed ahmad mahmoud mahmud ali hassan hasan hussein husain ibrahim abdullah abdallah omar umar khaled khalid youssef yousef yusuf mostafa mustafa said saeed sayed abdel abdul saleh salih salem salim adel tarek tariq samir nasser karim hamed hamid fatma fatima aisha maryam nour sara",
  // Iran and Turkey: most frequent surnames and forenames (Forebears; Turkey also TÜİK name statistics).
  // https://forebears.io/iran/surnames https://www.tuik.gov.tr/
  iran_turkey:
    "hosseini mohammadi ahmadi rezaei mousavi jafari hashemi reza mehdi hossein mehmet ahmet huseyin yilmaz kaya demir sahin celik yildiz yildirim ozturk aydin",
  // China: Ministry of Public Security, national name report 2020 (top 20 surnames), and the given-name
  // syllables it reports as most used. https://www.gov.cn/xinwen/2021-02/08/content_5585906.htm
  china:
    "wang li zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo he lin gao luo " +
    "wei ming jun jie yong tao hua lei bin hui ping hong yan na fang ying xia min jing qiang gang hai feng",
  // Korea: Statistics Korea, 2015 census surnames (top 10), in the romanizations in use (DPRK, McCune-Reischauer,
  // South Korean conventional). https://kosis.kr
  korea:
    "kim gim lee yi ri rhee park pak bak choi choe jung jeong jong chung kang cho jo yoon yun jang chang lim im rim",
  // Russia and Ukraine: the most frequent surnames and forenames (Forebears), with the patronymics of those
  // forenames. https://forebears.io/russia/surnames https://forebears.io/russia/forenames
  russia:
    "ivanov smirnov kuznetsov popov vasilyev vasiliev petrov sokolov mikhaylov mikhailov novikov fedorov morozov volkov alekseev lebedev semenov egorov pavlov kozlov stepanov nikolaev " +
    "aleksandr alexander sergey sergei dmitry dmitri andrey andrei aleksey alexey alexei maksim vladimir ivan mikhail nikolay nikolai evgeny yuri oleg viktor igor elena olga natalia natalya tatiana irina svetlana anna " +
    "aleksandrovich sergeyevich sergeevich dmitrievich andreyevich andreevich alekseyevich alekseevich vladimirovich ivanovich mikhaylovich mikhailovich nikolayevich nikolaevich viktorovich yuryevich yurievich " +
    "aleksandrovna sergeyevna vladimirovna ivanovna nikolayevna",
  // South Asia: most frequent surnames and forenames of India and Pakistan (Forebears).
  // https://forebears.io/india/surnames https://forebears.io/pakistan/surnames
  south_asia: "kumar singh sharma khan patel yadav shah gupta das devi ram lal ahmed iqbal hussain akhtar bibi",
  // Germany, France, Italy: most frequent surnames (Forebears; France also INSEE) and forenames.
  // https://forebears.io/germany/surnames https://forebears.io/france/surnames https://forebears.io/italy/surnames
  europe:
    "muller schmidt schneider fischer weber meyer wagner becker schulz hoffmann hans peter klaus jurgen wolfgang " +
    "bernard dubois thomas robert richard petit durand leroy moreau jean pierre michel philippe alain " +
    "rossi russo ferrari esposito bianchi romano colombo ricci giuseppe giovanni francesco mario luigi",
};

/** Every common name word, normalized. */
export const COMMON_NAME_WORDS: ReadonlySet<string> = new Set(Object.values(GROUPS).flatMap((g) => g.split(" ")));
