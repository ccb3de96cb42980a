/**
 * Price questions told as a symptom, the way customers describe a fault
 * rather than name the part (issue 18, the hand probes of issue 17's note):
 * "ma PS5 ne lit plus les disques" for the Blu-ray drive, "mon iPhone 13 a
 * l'écran cassé", "la vitre de mon Galaxy S21 est fissurée" for the screen.
 * Repairs customers call by their name (port HDMI, alimentation, carte
 * mère…) have none. Two phrasings per repair, chosen by `seed`.
 */
import type { RepairId } from "#app/catalogue/schema.ts";

type Phrasing = (device: string) => string;

/** `device` is "mon iPhone 13", "ma PS5". */
const SYMPTOMS: Partial<Record<RepairId, readonly [Phrasing, Phrasing]>> = {
  ecran: [
    (device) => `${capital(device)} a l'écran cassé, c'est combien ?`,
    (device) => `La vitre de ${device} est fissurée, combien pour la réparer ?`,
  ],
  "ecran-superieur": [
    (device) => `L'écran du haut de ${device} est cassé, quel prix ?`,
    (device) => `${capital(device)} a l'écran du haut fissuré`,
  ],
  "ecran-inferieur": [
    (device) => `L'écran tactile de ${device} ne répond plus, c'est combien ?`,
    (device) => `L'écran du bas de ${device} est cassé`,
  ],
  batterie: [
    (device) => `${capital(device)} ne tient plus la charge, combien ça coûte ?`,
    (device) => `${capital(device)} se décharge très vite`,
  ],
  "vitre-arriere": [
    (device) => `Le dos de ${device} est cassé, c'est combien ?`,
    (device) => `${capital(device)} a la vitre arrière fissurée`,
  ],
  connecteur: [
    (device) => `${capital(device)} ne charge plus, combien pour réparer ?`,
    (device) => `${capital(device)} ne se recharge plus quand je le branche`,
  ],
  "connecteur-de-charge": [
    (device) => `${capital(device)} ne charge plus, combien pour réparer ?`,
    (device) => `Mon chargeur ne marche plus avec ${device}`,
  ],
  "port-usb-c": [
    (device) => `${capital(device)} ne charge plus, combien pour réparer ?`,
    (device) => `${capital(device)} ne se recharge plus`,
  ],
  camera: [
    (device) => `Les photos de ${device} sont floues, c'est combien ?`,
    (device) => `L'appareil photo de ${device} ne marche plus`,
  ],
  "camera-arriere": [
    (device) => `Les photos de ${device} sont floues, c'est combien ?`,
    (device) => `L'appareil photo de ${device} ne fait plus la mise au point`,
  ],
  "camera-avant": [
    (device) => `Les selfies de ${device} sont flous, c'est combien ?`,
    (device) => `Je ne peux plus faire de selfie avec ${device}`,
  ],
  "lecteur-blu-ray": [
    (device) => `${capital(device)} ne lit plus les disques, combien ?`,
    (device) => `${capital(device)} ne lit plus les jeux`,
  ],
  "lecteur-dvd": [
    (device) => `${capital(device)} ne lit plus les disques, combien ?`,
    (device) => `${capital(device)} ne lit plus les DVD`,
  ],
  "lecteur-cd": [
    (device) => `${capital(device)} ne lit plus les disques, combien ?`,
    (device) => `${capital(device)} ne lit plus les CD de jeux`,
  ],
  "lecteur-disque": [
    (device) => `${capital(device)} ne lit plus les disques, combien ?`,
    (device) => `${capital(device)} ne reconnaît plus les jeux`,
  ],
  ventilateur: [
    (device) => `${capital(device)} surchauffe, c'est combien ?`,
    (device) => `${capital(device)} fait un bruit énorme`,
  ],
  "joy-con": [
    (device) => `Les manettes de ${device} ont du drift, combien ?`,
    (device) => `La manette de ${device} ne marche plus`,
  ],
  gamepad: [
    (device) => `La manette de ${device} est cassée, combien ?`,
    (device) => `Combien pour réparer la manette de ${device} ?`,
  ],
  joysticks: [
    (device) => `Les joysticks de ${device} ont du drift, combien ?`,
    (device) => `Le stick de ${device} ne répond plus`,
  ],
  "disque-dur": [
    (device) => `Le disque dur de ${device} est mort, combien ?`,
    (device) => `Combien pour changer le SSD de ${device} ?`,
  ],
};

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A symptom question about `repair` of `device` ("mon iPhone 13"), or undefined for a repair called by its name. */
export function symptomQuestion(repair: RepairId, device: string, seed: number): string | undefined {
  return SYMPTOMS[repair]?.[seed % 2]?.(device);
}
